-- A user's files, newest first, for the console's user page (docs/files.md "The console"): a page is one range of
-- this index, whatever the app's other files.
create index files_by_owner on files (app_id, owner_id, file_id);

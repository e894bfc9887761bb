-- Which messages carry a file, for the download check (docs/files.md). A send stores a file's attachment in one
-- canonical form that starts with {"file_id":N, (file.FileAttachments), so the index holds those messages only and
-- costs the others nothing. A plain build holds up sends for one scan of messages: on a large production table,
-- build it beforehand with CREATE INDEX CONCURRENTLY (docs/operations.md "Migrations"); this then finds it.
create index if not exists messages_by_file
    on messages ((substring(attachment from '^\{"file_id":([0-9]{1,18})[,}]')::bigint))
    where attachment like '{"file_id":%';

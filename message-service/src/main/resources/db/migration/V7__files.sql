-- Files of image, voice, video and file messages (docs/files.md). The bytes live in the object store under
-- object_key; this row says whose they are and what they are. state: 0 uploading (declared, maybe PUT), 1 completed
-- (checked: size, sha256, type by the first bytes). Declared values are the client's word; real ones are measured.
create sequence file_ids start with 1000;
create table files (
    file_id        bigint   primary key,
    app_id         text     not null,
    owner_id       bigint   not null,
    object_key     text     not null,
    name           text     not null,
    declared_size  bigint   not null,
    size           bigint,
    sha256         bytea    not null,
    content_type   text     not null,          -- declared at upload; the detected one once completed
    kind           smallint,                   -- message content_type: 1 image, 2 audio, 3 video, 4 file
    state          smallint not null default 0,
    width          int,
    height         int,
    thumbnail_key  text,
    created_at     timestamptz not null default now(),
    completed_at   timestamptz
);
-- an app's files: its storage use (index-only sum of completed sizes), their deletion with the app
create index files_by_app on files (app_id, state) include (size);
-- the sweep of uploads never completed
create index files_uploading on files (created_at) where state = 0;

-- Recall and edit of a sent message (docs/api-decisions.md "Recall and edit").

-- recalled_ms: when the message was recalled (its content, attachment and ext are cleared then); edited_ms: when
-- its content was last replaced. Null: never. Nullable columns without a default: no rewrite of the table.
alter table messages add column if not exists recalled_ms bigint, add column if not exists edited_ms bigint;

-- Unread counts skip recalled messages: a read counts those above the member's position through this index, which
-- holds the recalled messages only (docs/message-storage.md "Unread is arithmetic, not rows"). A plain build holds
-- up sends for one scan of messages: on a large production table build it beforehand with CREATE INDEX
-- CONCURRENTLY (docs/operations.md "Migrations"); this then finds it.
create index if not exists messages_recalled on messages (conversation_id, seq) where recalled_ms is not null;

-- Each app's recall and edit windows in seconds (POST /app/message_settings); null, or no row: the default of
-- im.message.recall-window / im.message.edit-window.
create table if not exists message_settings (
    app_id                 text        primary key,
    recall_window_seconds  int,
    edit_window_seconds    int,
    updated_at             timestamptz not null default now()
);

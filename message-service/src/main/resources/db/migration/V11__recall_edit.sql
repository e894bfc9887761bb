-- Recall and edit of a sent message (docs/api-decisions.md "Recall and edit").

-- recalled_ms: when the message was recalled (its content, attachment and ext are cleared then); edited_ms: when
-- its content was last replaced. Null: never. Nullable columns without a default: no rewrite of the table.
alter table messages add column recalled_ms bigint, add column edited_ms bigint;

-- Unread counts skip recalled messages: a read counts those above the member's position through this index, which
-- holds the recalled messages only (docs/message-storage.md "Unread is arithmetic, not rows"). A plain build holds
-- up sends for one scan of messages: on a large production table build it beforehand with CREATE INDEX
-- CONCURRENTLY (docs/operations.md "Migrations"); this then finds it.
create index if not exists messages_recalled on messages (conversation_id, seq) where recalled_ms is not null;

-- Each app's recall and edit windows in seconds (POST /app/message_settings); null, or no row: the default of
-- im.message.recall-window / im.message.edit-window.
create table message_settings (
    app_id                 text        primary key,
    recall_window_seconds  int,
    edit_window_seconds    int,
    updated_at             timestamptz not null default now()
);

-- The badge's read count (V6) leaves out the recalled messages read past: a recall already took them off the
-- count (MessageRevisions.recall writes them to unread_changes in the recalling transaction).
create or replace function unread_change() returns trigger language plpgsql as $$
declare
    was bigint;
    now_at bigint;
    own int;
    recalled int;
begin
    if not (select counting from unread_counting) then
        return null;
    end if;
    if tg_op = 'DELETE' then
        insert into unread_changes (app_id, user_id, read) values (old.app_id, old.user_id, null);
        return null;
    end if;
    if new.floor_seq <> old.floor_seq then
        insert into unread_changes (app_id, user_id, read) values (new.app_id, new.user_id, null);
        return null;
    end if;
    was := greatest(old.read_seq, old.floor_seq);
    now_at := greatest(new.read_seq, new.floor_seq);
    if now_at <= was then
        return null;
    end if;
    select count(*) into own from conversations v join messages m on m.conversation_id = v.id
        and m.msg_id = v.last_msg_id where v.id = new.conversation_id and v.last_seq = now_at
        and m.sender_id = new.user_id;
    select count(*) into recalled from messages r where r.conversation_id = new.conversation_id
        and r.recalled_ms is not null and r.seq > was and r.seq <= now_at and r.sender_id <> new.user_id;
    if now_at - was - own - recalled > 0 then
        insert into unread_changes (app_id, user_id, read)
            values (new.app_id, new.user_id, now_at - was - own - recalled);
    end if;
    return null;
end $$;

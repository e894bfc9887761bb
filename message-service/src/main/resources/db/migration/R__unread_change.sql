-- The trigger that keeps unread_changes (V6_1) from the members' rows. A repeatable migration: Flyway runs it again
-- whenever this file changes, so the function's one current text lives here; change it in place, never in a
-- versioned migration (docs/operations.md "Migrations").
--
-- A read moves read_seq past messages: those of others were counted, the reader's own never were (a send moves its
-- sender's read position over their own message, the conversation's last one), nor are the recalled messages read
-- past: a recall already took them off the count (MessageRevisions.recall writes them to unread_changes in the
-- recalling transaction). A moved floor or an ended membership asks for the count to be taken again (null).
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

create or replace trigger conversation_members_read after update of read_seq, floor_seq on conversation_members
    for each row when (new.read_seq <> old.read_seq or new.floor_seq <> old.floor_seq)
    execute function unread_change();
create or replace trigger conversation_members_gone after delete on conversation_members
    for each row execute function unread_change();

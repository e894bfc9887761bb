-- Each user's unread count over all their conversations, kept by the offline push publisher so that a notification's
-- badge is one row, not a sum over every conversation of the recipient (docs/offline-push.md "The badge"). A row is
-- created by the publisher the first time its user is notified (the sum at that moment, less the messages it has
-- yet to announce to them), raised by one per message it announces to them, lowered by their reads.
create table unread_counts (
    app_id   text   not null,
    user_id  bigint not null,
    unread   bigint not null,
    primary key (app_id, user_id)
);

-- What the members' rows changed since the publisher's last pass, written in the changing transaction: `read`
-- messages read, or null when the count must be taken again (a floor moved, a membership ended).
create table unread_changes (
    id       bigserial primary key,
    app_id   text   not null,
    user_id  bigint not null,
    read     bigint
);
create index unread_changes_by_user on unread_changes (app_id, user_id);
alter table unread_changes set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0);

-- One row: whether the publisher keeps the counts (offline push on); while it does not, nothing is written.
create table unread_counting (
    single    boolean primary key default true check (single),
    counting  boolean not null
);
insert into unread_counting (counting) values (false);

-- A count taken again subtracts the messages still queued in the member's conversations.
create index offline_push_queue_by_conversation on offline_push_queue (conversation_id);

-- A read moves read_seq past messages: those of others were counted, the reader's own never were (a send moves its
-- sender's read position over their own message, the conversation's last one).
create function unread_change() returns trigger language plpgsql as $$
declare
    was bigint;
    now_at bigint;
    own int;
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
    if now_at - was - own > 0 then
        insert into unread_changes (app_id, user_id, read) values (new.app_id, new.user_id, now_at - was - own);
    end if;
    return null;
end $$;

create trigger conversation_members_read after update of read_seq, floor_seq on conversation_members
    for each row when (new.read_seq <> old.read_seq or new.floor_seq <> old.floor_seq)
    execute function unread_change();
create trigger conversation_members_gone after delete on conversation_members
    for each row execute function unread_change();

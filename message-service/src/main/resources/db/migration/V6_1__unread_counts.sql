-- Each user's unread count over all their conversations, kept by the offline push publisher so that a notification's
-- badge is one row, not a sum over every conversation of the recipient (docs/offline-push.md "The badge"). A row is
-- created by the publisher the first time its user is notified (the sum at that moment, less the messages it has
-- yet to announce to them), raised by one per message it announces to them, lowered by their reads.
create table if not exists unread_counts (
    app_id   text   not null,
    user_id  bigint not null,
    unread   bigint not null,
    primary key (app_id, user_id)
);

-- What the members' rows changed since the publisher's last pass, written in the changing transaction: `read`
-- messages read, or null when the count must be taken again (a floor moved, a membership ended).
create table if not exists unread_changes (
    id       bigserial primary key,
    app_id   text   not null,
    user_id  bigint not null,
    read     bigint
);
create index if not exists unread_changes_by_user on unread_changes (app_id, user_id);
alter table unread_changes set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0);

-- One row: whether the publisher keeps the counts (offline push on); while it does not, nothing is written.
create table if not exists unread_counting (
    single    boolean primary key default true check (single),
    counting  boolean not null
);
insert into unread_counting (counting) values (false) on conflict do nothing;

-- A count taken again subtracts the messages still queued in the member's conversations.
create index if not exists offline_push_queue_by_conversation on offline_push_queue (conversation_id);

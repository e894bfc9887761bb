-- Messages on their way to push-service's offline push (docs/offline-push.md). A row is written in the send's
-- transaction; the publisher (OfflinePushPublisher) turns due rows into message.events records through the outbox.
-- A row whose recipients had live connections comes due again after the ack window (stage 1, live = those
-- recipients) to announce the devices that did not acknowledge the message.
create table offline_push_queue (
    id               bigserial primary key,
    app_id           text        not null,
    conversation_id  bigint      not null,
    msg_id           bigint      not null,
    stage            smallint    not null default 0,
    due_at           timestamptz not null default now(),
    live             text
);
create index offline_push_queue_due on offline_push_queue (due_at, msg_id);

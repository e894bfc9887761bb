-- The recipients of a message who have no device at all, one row per message (docs/offline-push.md "Who gets one"):
-- as a trace row each, a 500-member group's message to members without phones wrote 500 rows, and the group send
-- benchmark's PostgreSQL spent its time and WAL on them (issue 48: 470,000 rows and 168 MB of WAL in 15 s).
create table offline_push_no_device (
    app_id       text        not null,
    msg_id       bigint      not null,
    conversation text        not null,
    user_ids     bigint[]    not null,
    created_at   timestamptz not null default now(),
    primary key (app_id, msg_id)
);
create index offline_push_no_device_age on offline_push_no_device (created_at);

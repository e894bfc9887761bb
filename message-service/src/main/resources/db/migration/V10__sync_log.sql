-- Each user's change log (docs/message-storage.md "The change log"): what the user's devices must learn of, in
-- one order per user, read from a cursor by GET /message/sync and replayed on /ws.

-- The user's last position. A writer raises it in the transaction that writes the events, as that transaction's
-- last statement, so the row lock makes a user's positions dense and in commit order.
create table sync_heads (
    app_id    text   not null,
    user_id   bigint not null,
    last_pos  bigint not null,
    primary key (app_id, user_id)
);

-- One row per change and user. type: 1 message, 2 recall, 3 edit, 4 read, 5 conversation_deleted, 6 group.
-- peer_id: the conversation as this user sees it (the peer user, the group, 0 for the system).
-- msg_id: the message whose current Message object the event carries (message, recall, edit), else null.
-- payload: the event's other fields as a JSON object, or null.
create table sync_events (
    app_id           text     not null,
    user_id          bigint   not null,
    position         bigint   not null,
    type             smallint not null,
    peer_id          bigint   not null,
    conversation_id  bigint,
    msg_id           bigint,
    payload          text,
    created_at       timestamptz not null default now(),
    primary key (app_id, user_id, position)
);
-- the retention sweep deletes the oldest rows in batches
create index sync_events_by_age on sync_events (created_at);

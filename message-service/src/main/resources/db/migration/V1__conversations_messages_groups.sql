-- message-service schema (docs/message-storage.md explains the model and shows the plans of the hot queries).

-- Users (auth-service, below 10^12) and groups share one id space, so an address {uid} names either.
create sequence group_ids start with 1000000000000;
-- msg_id: unique per app (unique overall) and, because it is drawn under the conversation's row lock,
-- increasing within a conversation in commit order.
create sequence msg_ids;

-- One row per conversation: direct (two users), group, or system (notifications to one user, address 0).
-- last_seq counts the conversation's messages; unread = last_seq - the member's read position.
create table conversations (
    id           bigserial primary key,
    app_id       text     not null,
    kind         smallint not null,           -- 1 direct, 2 group, 3 system
    low_id       bigint   not null,           -- direct: smaller user id; group: group id; system: the user
    high_id      bigint   not null,           -- direct: larger user id; group and system: 0
    last_seq     bigint   not null default 0,
    last_msg_id  bigint   not null default 0,
    last_at      timestamptz,
    constraint conversations_address unique (app_id, kind, low_id, high_id)
);

-- A member's position in a conversation. Group membership is this row (role 1 = owner).
-- read_seq: acknowledged (READ); delivered_seq: acknowledged by one of its online devices (DELIVERED);
-- floor_seq/floor_msg_id: deleted up to there (DELETE /message/conversation), also set on joining a group.
create table conversation_members (
    conversation_id  bigint   not null references conversations (id),
    user_id          bigint   not null,
    app_id           text     not null,
    peer_id          bigint   not null,       -- the address the member sees: the other user, the group, or 0
    role             smallint not null default 0,
    joined_at        timestamptz not null default now(),
    read_seq         bigint   not null default 0,
    delivered_seq    bigint   not null default 0,
    floor_seq        bigint   not null default 0,
    floor_msg_id     bigint   not null default 0,
    primary key (conversation_id, user_id)
);
create index conversation_members_by_user on conversation_members (app_id, user_id);

-- A message is stored once, whatever the number of group members.
create table messages (
    conversation_id   bigint   not null references conversations (id),
    msg_id            bigint   not null,
    seq               bigint   not null,
    sender_id         bigint   not null,      -- 0: the system (notifications)
    sender_device_sn  int,
    target_id         bigint   not null,      -- to_xid.uid: the receiving user or the group
    content_type      smallint not null,
    content           text     not null,
    attachment        text,
    config            text,
    ext               text,
    created_ms        bigint   not null,
    primary key (conversation_id, msg_id)
);

create table groups (
    app_id           text   not null,
    group_id         bigint not null,
    conversation_id  bigint not null references conversations (id),
    name             text   not null,
    description      text,
    avatar           text,
    created_by       bigint,                  -- null: created by an admin token acting as nobody
    created_at       timestamptz not null default now(),
    destroyed_at     timestamptz,
    primary key (app_id, group_id)
);

-- transaction_id de-duplication: the first call's answer per sender, for the window (im.message.dedup-window).
-- The primary key decides between concurrent repeats, on every replica.
create table send_dedup (
    app_id          text   not null,
    sender_id       bigint not null,
    transaction_id  bigint not null,
    answer          text,
    created_at      timestamptz not null default now(),
    primary key (app_id, sender_id, transaction_id)
);
create index send_dedup_by_age on send_dedup (created_at);

-- Live connections: which device is connected to which replica. Rows of a replica whose heartbeat stopped
-- are ignored and then removed by the other replicas.
create table replicas (
    replica_id    text primary key,
    heartbeat_at  timestamptz not null
);

create table presence (
    app_id        text   not null,
    user_id       bigint not null,
    device_sn     int    not null,
    replica_id    text   not null,
    connection_id text   not null,            -- a reconnect replaces the row; the old socket's close must not delete it
    connected_at  timestamptz not null default now(),
    primary key (app_id, user_id, device_sn)
);
create index presence_by_replica on presence (replica_id);

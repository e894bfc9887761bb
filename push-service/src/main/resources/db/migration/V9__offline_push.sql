-- Offline push of chat messages (docs/offline-push.md).

-- per app: offline push on (the default, while push is on) or off, and the language of the generated texts
create table push_offline_settings (
    app_id      text primary key,
    enabled     boolean not null default true,
    language    text    not null default 'en'
);

-- per user: the name shown as the title of their messages, previews, do-not-disturb hours in their time zone
create table push_user_settings (
    app_id        text    not null,
    user_id       bigint  not null,
    display_name  text,
    show_preview  boolean not null default true,
    dnd_start     smallint,            -- minutes after local midnight; both null: no quiet hours
    dnd_end       smallint,
    time_zone     text    not null default 'UTC',
    primary key (app_id, user_id)
);

-- per user and conversation (the address as the user sees it: the peer, the group, 0 for system notifications)
create table push_conversation_mutes (
    app_id           text   not null,
    user_id          bigint not null,
    conversation_id  bigint not null,
    primary key (app_id, user_id, conversation_id)
);

-- one row per message and recipient device: push-service's decision, then push-worker's delivery. A row queued for
-- an OS channel is push-worker's claim (state sending, owner, lease_until): what makes one notification per
-- message and device across redeliveries and crashes. Kept 7 days.
create table offline_push_trace (
    app_id        text        not null,
    msg_id        bigint      not null,
    user_id       bigint      not null,
    device_sn     int         not null,      -- 0: the user has no device
    device_id     bigint,
    conversation  text        not null,      -- the recipient's conversation: u:<peer>, g:<group>, s
    decision      text        not null,
    channel       text,
    state         text        not null,      -- decided (nothing to send), queued, sending, sent, failed, rejected, superseded
    owner         text,
    lease_until   timestamptz,
    reason        text,
    created_at    timestamptz not null default now(),
    sent_at       timestamptz,
    received_at   timestamptz,
    primary key (app_id, msg_id, user_id, device_sn)
);
create index offline_push_trace_age on offline_push_trace (created_at);
-- the newer notification of a conversation on a device supersedes an older one not yet sent
create index offline_push_trace_device on offline_push_trace (device_id, conversation, msg_id)
    where device_id is not null and state in ('queued', 'sending', 'sent');

-- offline pushes per app, day (UTC) and channel, for the console's trends; no push_tasks row per message. Writers
-- (push-worker's finishes, receipts) add to one of 16 slots at random, so that they do not all queue on one row lock
-- of a busy app; readers sum the slots.
create table offline_push_daily (
    app_id    text     not null,
    day       date     not null,
    channel   text     not null,
    slot      smallint not null default 0,
    sent      bigint   not null default 0,
    failed    bigint   not null default 0,
    rejected  bigint   not null default 0,
    received  bigint   not null default 0,
    primary key (app_id, day, channel, slot)
);

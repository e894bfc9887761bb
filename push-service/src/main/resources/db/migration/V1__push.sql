-- push-service's own tables (docs/push.md). push-worker uses the same database: it reads devices, tokens and
-- certificates and writes the sent/received counters and batch completion; it runs no migrations.

-- push switched on or off per app (POST /push/enable); an app without a row has push off
create table push_apps (
    app_id        text primary key,
    push_enabled  boolean     not null,
    updated_at    timestamptz not null default now()
);

-- provider credentials per app, provider (1..7, api.md 4.5.1) and environment (0 development, 1 production);
-- the name is what a device's token binding refers to (notifier_name). Secrets are AES-GCM encrypted.
create table push_certificates (
    app_id           text     not null,
    provider         smallint not null,
    environment      smallint not null,
    name             text     not null,
    provider_app_id  text     not null,
    app_key          text     not null,
    app_secret_enc   bytea    not null,
    certificate_enc  bytea    not null,
    updated_at       timestamptz not null default now(),
    primary key (app_id, provider, environment),
    unique (app_id, name)
);

-- per-user push settings: push_disabled is the user's opt-out (POST /user/push?value=true sets it, value=false clears it)
create table push_users (
    app_id         text    not null,
    user_id        bigint  not null,
    push_disabled  boolean not null,
    primary key (app_id, user_id)
);

-- tags belong to users (every device of a tagged user is in a tag audience)
create table push_user_tags (
    app_id   text   not null,
    tag      text   not null,
    user_id  bigint not null,
    primary key (app_id, tag, user_id)
);
create index push_user_tags_user on push_user_tags (app_id, user_id);

-- the device registry: one row per device auth-service registered (device.registered on auth.events);
-- device_id is the expansion's stable streaming order and checkpoint
create table push_devices (
    device_id      bigint generated always as identity primary key,
    app_id         text    not null,
    user_id        bigint  not null,
    device_sn      int     not null,
    push_token     text,
    alias          text,
    badge          int     not null default 0,
    registered_at  timestamptz not null default now(),
    unique (app_id, user_id, device_sn)
);
create unique index push_devices_token on push_devices (app_id, push_token) where push_token is not null;
create index push_devices_alias on push_devices (app_id, alias) where alias is not null;
create index push_devices_app_order on push_devices (app_id, device_id);

-- provider tokens bound to a device (POST /user/token/bind): at most one per channel; a provider token belongs to
-- one device of the app at a time (binding it elsewhere moves it)
create table push_device_tokens (
    device_id      bigint   not null references push_devices on delete cascade,
    channel        text     not null,
    app_id         text     not null,
    token          text     not null,
    notifier_name  text     not null,
    environment    smallint not null,
    bound_at       timestamptz not null default now(),
    primary key (device_id, channel),
    unique (app_id, channel, token)
);

-- live-connection presence from message-service's presence.events: the highest connection seq per device wins
create table push_presence (
    app_id     text    not null,
    user_id    bigint  not null,
    device_sn  int     not null,
    seq        bigint  not null,
    online     boolean not null,
    primary key (app_id, user_id, device_sn)
);

-- push tasks: the normalized request, the expansion's checkpoint (mirrored from push.expansion, docs/push-fanout.md)
-- and its progress; one replica expands a task at a time (session advisory lock on task_id)
create table push_tasks (
    task_id          bigint generated always as identity primary key,
    app_id           text        not null,
    state            text        not null,
    request          jsonb       not null,
    show_begin_at    timestamptz,
    show_end_at      timestamptz,
    created_at       timestamptz not null default now(),
    cursor_device_id bigint      not null default 0,
    pages            int         not null default 0,
    devices_expanded bigint      not null default 0,
    batches_total    int         not null default 0,
    batches_done     int         not null default 0,
    checkpoint_offset bigint,
    finished_at      timestamptz
);
create index push_tasks_pending on push_tasks (show_begin_at) where state in ('accepted', 'scheduled', 'expanding');
create index push_tasks_app on push_tasks (app_id, task_id);

-- per task and channel: target (set by the expansion), sent and received (push-worker)
create table push_task_counts (
    task_id   bigint not null references push_tasks on delete cascade,
    channel   text   not null,
    target    int    not null default 0,
    sent      int    not null default 0,
    received  int    not null default 0,
    primary key (task_id, channel)
);

-- setting.request_id de-duplication: a repeat within the window returns the first task_id
create table push_request_ids (
    app_id      text        not null,
    request_id  text        not null,
    task_id     bigint      not null,
    created_at  timestamptz not null default now(),
    primary key (app_id, request_id)
);
-- the hourly purge of ids older than the window
create index push_request_ids_age on push_request_ids (created_at);

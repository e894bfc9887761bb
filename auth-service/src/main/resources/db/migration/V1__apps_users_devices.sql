-- User ids come from this sequence. Users and groups share one id space (decisions.md section 3):
-- user ids stay below 10^12; message-service allocates group ids from 10^12 up (docs/identifiers.md).
create sequence user_id_seq start with 10000 maxvalue 999999999999;

create table apps (
    app_id               text primary key,
    name                 text        not null,
    admin_token_version  int         not null default 1,
    created_at           timestamptz not null default now()
);

create table users (
    user_id         bigint primary key default nextval('user_id_seq'),
    app_id          text        not null references apps (app_id),
    username        text        not null,
    mobile          text,
    email           text,
    password_hash   text        not null,
    -- bumped by a password change: tokens carry it and stop working when it moves
    token_version   int         not null default 1,
    disabled        boolean     not null default false,
    next_device_sn  int         not null default 1,
    created_at      timestamptz not null default now()
);
-- login names are unique per app, user names without regard to case
create unique index users_app_username on users (app_id, lower(username));
create unique index users_app_mobile on users (app_id, mobile) where mobile is not null;
create unique index users_app_email on users (app_id, lower(email)) where email is not null;

create table devices (
    user_id       bigint      not null references users (user_id),
    device_sn     int         not null,
    device_guid   text        not null,
    push_token    text        not null unique,
    created_at    timestamptz not null default now(),
    last_seen_at  timestamptz not null default now(),
    primary key (user_id, device_sn),
    unique (user_id, device_guid)
);

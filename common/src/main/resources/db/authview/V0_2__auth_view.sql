-- This service's view of auth-service's apps and users, kept from the auth.events topic by AuthViewUpdater
-- (docs/events.md). Only what token checks need: versions for revocation and the disabled flag.
create table auth_view_apps (
    app_id               text primary key,
    admin_token_version  int not null
);

create table auth_view_users (
    app_id         text    not null,
    user_id        bigint  not null,
    token_version  int     not null,
    disabled       boolean not null,
    primary key (app_id, user_id)
);

-- When a user's credentials last died in this view (token version moved on, or the user was disabled): message-service's
-- replicas read the rows changed in the last seconds to close those users' live connections (docs/live-protocol.md,
-- "When credentials die"). Null for users whose credentials never died; the partial index holds only the others.
alter table auth_view_users add column credentials_changed_at timestamptz;
create index auth_view_users_credentials_changed on auth_view_users (credentials_changed_at)
    where credentials_changed_at is not null;

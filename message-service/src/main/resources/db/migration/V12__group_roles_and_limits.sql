-- Group roles (docs/api-decisions.md "Group roles"): admins are conversation_members.role 2 (1 stays the owner),
-- a member muted until a time, the whole group muted (owner and admins excepted), the announcement. And the app's
-- group-size limits of the live features (read frames, typing), absent rows taking im.message.groups.* defaults.

alter table conversation_members add column muted_until timestamptz;
alter table groups add column muted_all boolean not null default false;
alter table groups add column announcement text;

create table app_group_limits (
    app_id                      text        primary key,
    receipt_frames_max_members  int         not null,
    typing_max_members          int         not null,
    updated_at                  timestamptz not null
);

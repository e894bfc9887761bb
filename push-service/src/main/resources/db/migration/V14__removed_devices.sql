-- devices auth-service removed past their user's device limit (device.removed on auth.events). A token issued for
-- such a device before its removal still names it: its bind must not create the device again ahead of a
-- device.registered that will never come (docs/push-devices.md "Where devices come from").
create table push_removed_devices (
    app_id     text        not null,
    user_id    bigint      not null,
    device_sn  int         not null,
    removed_at timestamptz not null default now(),
    primary key (app_id, user_id, device_sn)
);

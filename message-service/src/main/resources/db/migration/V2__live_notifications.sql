-- svcpush notifications handed to the replica that holds the device's live connection (docs/live-protocol.md).
-- NOTIFY payloads are limited to 8000 bytes, so the payload names a row of this table and the devices; the
-- receiving replica reads the content here. A row is only needed for the moment between commit and that read:
-- rows older than im.message.live-notification-retention are purged every minute.
create table live_notifications (
    id           bigint generated always as identity primary key,
    app_id       text        not null,
    task_id      bigint      not null,
    notification text        not null,   -- the JSON object as push-worker gave it, written into the frames
    created_at   timestamptz not null default now()
);
create index live_notifications_by_age on live_notifications (created_at);

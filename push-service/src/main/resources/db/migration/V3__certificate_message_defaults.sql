-- An app's default message options per provider and environment (docs/push-certificates.md "message_defaults"):
-- the phone makers' message categories (vendor_a/c/d category, vendor_c notify_level, vendor_e notice_msg_type,
-- vendor_b channel_id) used when a push does not set them. Not secret: plain JSON.
alter table push_certificates add column message_defaults jsonb not null default '{}';

-- The apps' webhook signing secrets are sealed at rest (AES-256-GCM under im.webhooks.secret-key, docs/webhooks.md
-- "Signatures"). A secret stored in clear before this migration is sealed by message-service when it starts
-- (webhook.WebhookSecrets), which empties the clear column.
alter table webhook_endpoints add column secret_sealed bytea;
alter table webhook_endpoints alter column secret drop not null;

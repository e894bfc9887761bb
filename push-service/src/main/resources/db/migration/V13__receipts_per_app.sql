-- Receipts belong to their app (docs/push-worker.md "received").

-- the app's receipt key, the secret in the callback URL its providers call (/push/receipt/<channel>/<app_id>?key=),
-- AES-GCM sealed like the certificates' secrets (push-worker opens it to build the URL it asks providers to call);
-- null until the app's admin first reads it (GET /push/receipt_key)
alter table push_apps add column receipt_key_enc bytea;

-- push_receipts becomes the ledger of what may be received: push-worker writes a row (received = false) for every
-- target of a task batch it claims on a channel that reports deliveries, and a receipt counts only by turning one
-- such row to received, once. Rows stored before were written by a counted receipt: they stay received.
alter table push_receipts add column received boolean not null default true;
-- a receipt sets received_at when it turns the row received; a row written at the claim has none
alter table push_receipts alter column received_at drop default;

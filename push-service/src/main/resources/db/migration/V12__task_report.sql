-- The console's task report (docs/push-statistics.md "GET /push/task/history").

-- who sent a task: the client the caller named (User-Agent "imcore-console..." is the console, anything else the API;
-- the same admin token either way, so this is a label, not a proof) and the version of the admin token it used (the
-- app's admin_token_version, moved by every rotation). Null for tasks stored before.
alter table push_tasks
    add column sent_via            text,
    add column admin_token_version int;

-- deliveries over time: when a batch was counted and what it counted per channel ({"vendor_b": {"sent": 3,
-- "failed": 0, "rejected": 1}}; a svcpush batch also names the OS channels it fell back to), written by the update
-- that marks it done. Null for batches counted before.
alter table push_worker_batches
    add column finished_at timestamptz,
    add column counts      jsonb;

-- when a delivery was confirmed; receipts counted before have none (the column gets its default only from now on)
alter table push_receipts add column received_at timestamptz;
alter table push_receipts alter column received_at set default now();

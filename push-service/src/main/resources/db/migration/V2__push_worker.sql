-- push-worker's bookkeeping (docs/push-worker.md). push-service owns the schema; push-worker runs no migrations.

-- one row per channel record (task_id, batch_no) a worker took on: 'sending' from its claim until its outcome is
-- counted, then 'done'. A redelivered record whose row is 'done' is skipped; the claim/finish pair makes every
-- batch counted exactly once even when two workers hold it during a rebalance or one was killed mid-batch.
create table push_worker_batches (
    task_id    bigint   not null references push_tasks on delete cascade,
    batch_no   int      not null,
    state      text     not null,
    claimed_at timestamptz not null default now(),
    primary key (task_id, batch_no)
);

-- per task and channel, besides target/sent/received:
--   failed:       targets given up on (retries exhausted, no certificate, show_end_time passed)
--   rejected:     targets whose token the provider refused for good (the token is unbound)
--   fallback_in:  svcpush targets found offline that were sent on this OS channel instead (combined strategy)
--   fallback_out: on svcpush, the targets that went to an OS channel that way
-- The expansion mirrors `target` as an absolute value, so the worker's moves are kept apart from it: the effective
-- target is target - fallback_out + fallback_in.
alter table push_task_counts
    add column failed       int not null default 0,
    add column rejected     int not null default 0,
    add column fallback_in  int not null default 0,
    add column fallback_out int not null default 0;

-- batches whose remaining targets were not sent because show_end_time had passed: the task ends 'expired'
alter table push_tasks add column batches_expired int not null default 0;

-- delivery confirmations (svcpush device acks, provider receipts): one per task and device, so a repeated receipt
-- never counts twice
create table push_receipts (
    task_id   bigint not null references push_tasks on delete cascade,
    device_id bigint not null,
    channel   text   not null,
    primary key (task_id, device_id)
);

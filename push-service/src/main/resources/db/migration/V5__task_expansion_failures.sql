-- A task whose expansion keeps failing (docs/push-fanout.md "When the expansion fails"): each failure is counted and
-- the task waits (retry_at, growing) before it is tried again, so other tasks go first; after
-- im.push.fanout.max-failures consecutive failures it ends 'failed' with the last reason. A step that commits resets
-- the count.
alter table push_tasks
    add column expansion_failures int not null default 0,
    add column retry_at           timestamptz,
    add column failure_reason     text;

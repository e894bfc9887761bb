-- Statistics for the console (docs/push-statistics.md).

-- GET /push/task/list: an app's tasks, newest first, optionally within an acceptance-time range
create index push_tasks_app_created on push_tasks (app_id, created_at desc, task_id desc);

-- per task, channel and outcome ('failed' or 'rejected'): how many targets ended that way for each short, stable
-- reason (the provider's error name or status, or ours: 'no certificate', 'show_end_time passed', ...).
-- push-worker adds to it in the transaction that counts the batch in push_task_counts, so it is exact as they are:
-- per channel and outcome, the counts sum to push_task_counts.failed / rejected.
create table push_task_failures (
    task_id  bigint not null references push_tasks on delete cascade,
    channel  text   not null,
    outcome  text   not null check (outcome in ('failed', 'rejected')),
    reason   text   not null,
    count    int    not null,
    primary key (task_id, channel, outcome, reason)
);

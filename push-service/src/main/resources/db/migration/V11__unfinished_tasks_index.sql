-- The unfinished tasks, for the age of the oldest per state (TaskAges, the ImcorePushTaskStuck alert): few rows,
-- read every few seconds, whatever the number of finished tasks kept.
create index push_tasks_unfinished on push_tasks (state, created_at)
    where state in ('accepted', 'scheduled', 'expanding', 'dispatching');

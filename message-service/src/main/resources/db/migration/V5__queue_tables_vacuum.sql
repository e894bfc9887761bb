-- offline_push_queue and outbox are queues: each row is inserted, then updated or deleted within seconds, and the
-- publishers' index scans from the head walk the dead entries until a vacuum removes them. With the default
-- thresholds (20 % of a nearly empty table, throttled) the offline push publisher's due read grew from 1.6 to 4.7 ms
-- at 2,500 live messages/s (docs/benchmarks.md, issue 34). Vacuum them after a few thousand dead rows, unthrottled;
-- the server's autovacuum_naptime (10 s, docs/operations.md) sets how soon after.
alter table offline_push_queue set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0);
alter table outbox set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0);

-- push-worker's claim and finish and push-service's receipts change a trace row's state, lease, reason and times,
-- never its keys. With the state in the device index's predicate, each such update was a new version indexed in every
-- index of the table (26 % of them heap-only in a benchmark run, 2026-12-06); without it, and with room left on each
-- page for the new versions, they are heap-only (HOT): no index entry, less WAL. The supersede checks still reach a
-- device's newer rows through the index and filter their state. The new index has a name of its own, so that it can
-- be built by hand beforehand without blocking writes (docs/operations.md "Migrations").
create index if not exists offline_push_trace_by_device on offline_push_trace (device_id, conversation, msg_id)
    where device_id is not null;
drop index if exists offline_push_trace_device;
alter table offline_push_trace set (fillfactor = 70);

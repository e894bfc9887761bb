-- The app-icon badge counters move out of push_devices (docs/benchmarks.md "Badges in a table of their own").
-- push-worker raises 500 of them per ios, cloud and svcpush batch. In push_devices a raised row rarely fit on its
-- page, so each raise wrote a new entry into all five of its indexes. Here an update changes no indexed column,
-- and the fillfactor leaves room on the page, so the update stays on its page (HOT) and writes no index entry.
-- A device gets its row at its first badge; no row means badge 0.
create table push_device_badges (
    device_id bigint primary key references push_devices on delete cascade,
    badge     int    not null
) with (fillfactor = 70);

insert into push_device_badges (device_id, badge) select device_id, badge from push_devices where badge <> 0;

-- push_devices.badge is no longer read or written. It stays until no push-worker from before this migration runs;
-- a later migration drops it. A worker that old still raises it during a rolling upgrade, and those raises are lost.
comment on column push_devices.badge is 'unused since V8 (push_device_badges); to be dropped';

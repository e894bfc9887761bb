-- Throttling state shared by every replica of this service (docs/throttling.md; common's io.imcore.common.throttle).
-- The same tables in each service that throttles; each service keeps them in its own database.

-- Wrong-password counters per key (account:<app>:<login name>, address:<app>:<client address>).
create table throttle_failures (
    key              text        primary key,
    failures         int         not null,
    last_failure_at  timestamptz not null,
    blocked_until    timestamptz not null
);

-- Rate limits (GCRA): per key the "theoretical arrival time"; a past tat is a full bucket, as if the row were absent.
-- Unlogged: a take writes no WAL, so its commit waits for no disk flush (deploy/bench/throttle-cost.sh: ~35x the
-- rate on one hot row). The price: after a database crash or a failover the buckets start full, which a rate limit
-- can afford (the wrong-password counters above and the overrides below stay logged).
create unlogged table throttle_buckets (
    key  text        primary key,
    tat  timestamptz not null
) with (fillfactor = 70);  -- room on each page for HOT updates of the hot rows

-- The operator's per-app overrides of the configured quota defaults.
create table throttle_quotas (
    app_id     text   not null,
    quota      text   not null,
    calls      int    not null check (calls > 0),
    period_ms  bigint not null check (period_ms > 0),
    burst      int    not null check (burst > 0),
    primary key (app_id, quota)
);

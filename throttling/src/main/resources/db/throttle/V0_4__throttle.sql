-- Throttling state shared by every replica of a service (docs/throttling.md; the throttling module, io.imcore.throttle).
-- Each service that throttles keeps these tables in its own database and lists db/throttle in quarkus.flyway.locations.
--
-- Why "if not exists" and version 0.4: these tables used to come from a copy of this file in each service
-- (auth-service V2, message-service V3, push-service V6), already applied in existing databases. There this migration
-- runs out of order (quarkus.flyway.out-of-order) and changes nothing; the removed copies' history rows are accepted
-- as missing (quarkus.flyway.ignore-migration-patterns=*:missing). A new database gets the tables from here.

-- Wrong-password counters per key (account:<app>:<login name>, address:<app>:<client address>).
create table if not exists throttle_failures (
    key              text        primary key,
    failures         int         not null,
    last_failure_at  timestamptz not null,
    blocked_until    timestamptz not null
);

-- Rate limits (GCRA): per key the "theoretical arrival time"; a past tat is a full bucket, as if the row were absent.
-- Unlogged: a take writes no WAL, so its commit waits for no disk flush (deploy/bench/throttle-cost.sh: ~35x the
-- rate on one hot row). The price: after a database crash or a failover the buckets start full, which a rate limit
-- can afford (the wrong-password counters above and the overrides below stay logged).
create unlogged table if not exists throttle_buckets (
    key  text        primary key,
    tat  timestamptz not null
) with (fillfactor = 70);  -- room on each page for HOT updates of the hot rows

-- The operator's per-app overrides of the configured quota defaults.
create table if not exists throttle_quotas (
    app_id     text   not null,
    quota      text   not null,
    calls      int    not null check (calls > 0),
    period_ms  bigint not null check (period_ms > 0),
    burst      int    not null check (burst > 0),
    primary key (app_id, quota)
);

#!/usr/bin/env bash
# What POST /push/audience/count costs PostgreSQL for audience "all" (docs/api-decisions.md "Audience count"), on a
# scratch PostgreSQL 15 it starts and removes: push-service's migrations, DEVICES (1,000,000) devices seeded as
# deploy/bench/push.sh seeds them, then the counts and the warm EXPLAIN (ANALYZE, BUFFERS) (the second of two runs)
# of AudienceCounts' statement for each strategy. The statement is a copy of AudienceCounts.COUNT with
# AudienceDevices' condition for "all" (keep them alike). Needs the PostgreSQL 15 server binaries
# (/usr/lib/postgresql/15/bin); run as root (initdb runs as user postgres). Default shared_buffers (128 MB).
# Usage: deploy/bench/audience-count.sh   Knobs: DEVICES, PORT (15499).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEVICES="${DEVICES:-1000000}"
PORT="${PORT:-15499}"
APP=benchapp
# shellcheck source=scratch-pg.sh
source "$ROOT/deploy/bench/scratch-pg.sh" # BIN, DIR, psql, seed_push_devices

echo "audience-count: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), $DEVICES devices," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
seed_push_devices

cat >"$DIR/prepare.sql" <<'SQL'
prepare count_all(boolean, boolean, text[], text[], text) as
select channel, count(*) from (
  select case when $1 and bool_or(p.online) then 'svcpush'
              when $2 then ($3::text[])[min(array_position($4::text[], t.channel))] end as channel
  from push_devices d
  left join push_presence p on p.app_id = d.app_id and p.user_id = d.user_id
    and p.device_sn = d.device_sn and p.online
  left join push_device_tokens t on t.device_id = d.device_id
  where d.app_id = $5
    and not exists (select 1 from push_users u
      where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled)
    and not exists (select 1 from auth_view_users v
      where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled)
  group by d.device_id) routed
group by channel;
SQL
order="'{ios,vendor_a,vendor_b,vendor_c,vendor_d,vendor_e,cloud}'"
for strategy in "combined true true" "svcpush_only true false" "ospush_only false true"; do
  set -- $strategy
  args="$2, $3, $order, $order, '$APP'"
  # the first run warms the cache; the plan is the second's
  out="$(psql -f "$DIR/prepare.sql" -c "execute count_all($args)" \
    -c "explain (analyze, buffers, costs off) execute count_all($args)")"
  echo "== $1: $(grep -E '^[a-z_]*\|[0-9]+$' <<<"$out" | tr '\n' ' ')"
  grep -E 'Execution Time' <<<"$out"
  grep -E 'Buffers: shared' <<<"$out" | head -1
done

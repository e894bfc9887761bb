#!/usr/bin/env bash
# What a throttle costs the database per request (docs/throttling.md, "Cost"): pgbench runs, on a scratch
# PostgreSQL 15 it starts and removes, (1) a bare round trip (`select 1`), (2) the GCRA take of RateLimiter.TAKE on
# ONE hot key (every call of one app's quota on one row, the worst case), (3) the same on a key per client, and
# (4) the check of CredentialThrottle on an absent key (what every login pays). DURATION seconds each (10), with 1
# and 8 concurrent clients. BUCKETS_TABLE=unlogged (the migrations' choice, default) or BUCKETS_TABLE= (logged). Needs the PostgreSQL 15 server binaries (/usr/lib/postgresql/15/bin);
# run as root (initdb runs as user postgres).
set -euo pipefail
DURATION="${DURATION:-10}"
PORT="${PORT:-15499}"
# shellcheck source=scratch-pg.sh
source "$(dirname "${BASH_SOURCE[0]}")/scratch-pg.sh" # BIN, DIR, psql
psql -c "create ${BUCKETS_TABLE-unlogged} table throttle_buckets (key text primary key, tat timestamptz not null) with (fillfactor = 70)"
psql -c "create table throttle_failures (key text primary key, failures int not null,
  last_failure_at timestamptz not null, blocked_until timestamptz not null)"
# 1 microsecond interval, window 1000 s: always allowed, so every call writes (the cost of an allowed call)
TAKE="insert into throttle_buckets as b (key, tat) values (:key, now() + 1 * interval '1 microsecond')
  on conflict (key) do update set tat = greatest(b.tat, now()) + 1 * interval '1 microsecond'
  where greatest(b.tat, now()) + 1 * interval '1 microsecond' <= now() + 1000000000 * interval '1 microsecond';"
printf 'select 1;\n' >"$DIR/roundtrip.sql"
hot_key="'quota.message-send.hot-app'"
spread_key="('quota.message-send.app-' || :client_id)"
echo "${TAKE//:key/$hot_key}" >"$DIR/hot.sql"
echo "${TAKE//:key/$spread_key}" >"$DIR/spread.sql"
printf "select key from throttle_failures where key in ('account.app.name.alice', 'address.app.10.0.0.1') and blocked_until > now();\n" \
  >"$DIR/check.sql"
printf '%-34s %8s %12s %14s\n' "statement" clients "calls/s" "latency ms"
for script in roundtrip hot spread check; do
  for clients in 1 8; do
    out="$("$BIN/pgbench" -h 127.0.0.1 -p "$PORT" -U postgres -n -M prepared -T "$DURATION" -c "$clients" \
      -j "$clients" -f "$DIR/$script.sql" postgres 2>&1)" || { echo "$out" >&2; exit 1; }
    tps="$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")"
    lat="$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")"
    printf '%-34s %8s %12s %14s\n' "$script" "$clients" "$tps" "$lat"
  done
done

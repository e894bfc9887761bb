#!/usr/bin/env bash
# What one page of the push expansion's audience costs PostgreSQL (docs/benchmarks.md "Audience page"), on
# a scratch PostgreSQL 15 it starts and removes: push-service's migrations, DEVICES
# (1,000,000) devices seeded as deploy/bench/push.sh seeds them, then for a page of PAGE_SIZE (5000) devices at the
# start, the middle and the end of the table:
#   1. EXPLAIN (ANALYZE, BUFFERS) of the former page query (one statement, a presence probe and a token probe per
#      device through lateral joins) and of each of AudiencePages' three statements (devices, online devices of
#      the page's users, tokens by device_id range), warm (the second of two runs);
#   2. pgbench -M prepared (server-side prepared statements, as the JDBC driver uses them after a few executions),
#      one client, DURATION (15) s each, random page: the per-page latency of the former query and of the three
#      statements (pgbench -r, per statement), rows and all, without EXPLAIN's per-node timing.
# The statements are copies of AudiencePages' (keep them alike). Needs the PostgreSQL 15 server binaries
# (/usr/lib/postgresql/15/bin); run as root (initdb runs as user postgres). Default shared_buffers (128 MB).
# Usage: deploy/bench/audience-page.sh   Knobs: DEVICES, PAGE_SIZE, DURATION, PORT (15498).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEVICES="${DEVICES:-1000000}"
PAGE_SIZE="${PAGE_SIZE:-5000}"
DURATION="${DURATION:-15}"
PORT="${PORT:-15498}"
APP=benchapp
# shellcheck source=scratch-pg.sh
source "$ROOT/deploy/bench/scratch-pg.sh" # BIN, DIR, psql, seed_push_devices

echo "audience-page: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), $DEVICES devices, pages of $PAGE_SIZE," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
seed_push_devices

# AudiencePages' statements (audience all) and the former single statement, prepared as the driver prepares them
cat >"$DIR/prepare.sql" <<'SQL'
prepare former(text, bigint, int) as
with page as (select d.device_id, d.user_id, d.device_sn from push_devices d
  where d.app_id = $1 and d.device_id > $2
  and not exists (select 1 from push_users u where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled)
  and not exists (select 1 from auth_view_users v where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled)
  order by d.app_id, d.device_id limit $3)
select g.device_id, g.user_id, g.device_sn, coalesce(p.online, false), k.channel, k.token, k.notifier_name, k.environment
from page g
left join lateral (select p.online from push_presence p
  where p.app_id = $1 and p.user_id = g.user_id and p.device_sn = g.device_sn offset 0) p on true
left join lateral (select k.channel, k.token, k.notifier_name, k.environment from push_device_tokens k
  where k.device_id = g.device_id offset 0) k on true
order by g.device_id;
prepare devices(text, bigint, int) as
select d.device_id, d.user_id, d.device_sn from push_devices d where d.app_id = $1 and d.device_id > $2
  and not exists (select 1 from push_users u where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled)
  and not exists (select 1 from auth_view_users v where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled)
  order by d.app_id, d.device_id limit $3;
prepare online(bigint[], text) as
select u.user_id, p.device_sn from unnest($1::bigint[]) u(user_id)
  cross join lateral (select p.device_sn from push_presence p
    where p.app_id = $2 and p.user_id = u.user_id and p.online offset 0) p;
prepare tokens_in_range(bigint, bigint, text) as
select device_id, channel, token, notifier_name, environment from push_device_tokens
  where device_id between $1 and $2 and app_id = $3 order by device_id;
SQL

# plan NAME: the warm EXPLAIN of statement NAME (the second of two runs); prints "ms buffers" of the whole plan
plan() {
  local name="$1" args="$2" out
  out="$(psql -f "$DIR/prepare.sql" -f <(echo "\\set cursor $cursor"; cat "$DIR/page.sql";
    echo "explain (analyze, buffers, costs off) execute $name($args);";
    echo "explain (analyze, buffers, costs off) execute $name($args);"))"
  out="$(awk 'seen; /^Execution Time/ { seen = 1 }' <<<"$out")" # the second plan
  echo "$out" | cut -c1-160 >>"$DIR/plans.txt"
  awk '/^Execution Time/ { ms = $3 } /Buffers: shared/ && !b { b = $0 } END {
    hit = 0; read = 0
    if (match(b, /hit=[0-9]+/)) hit = substr(b, RSTART + 4, RLENGTH - 4)
    if (match(b, /read=[0-9]+/)) read = substr(b, RSTART + 5, RLENGTH - 5)
    printf "%s %d\n", ms, hit + read }' <<<"$out"
}
# the page's bounds and distinct users, as AudiencePages derives them from the devices it read
cat >"$DIR/page.sql" <<SQL
select min(device_id) as lo, max(device_id) as hi,
  '{' || string_agg(distinct user_id::text, ',') || '}' as users
from (select device_id, user_id from push_devices where app_id = '$APP' and device_id > :cursor
  order by app_id, device_id limit $PAGE_SIZE) p \gset
SQL

: >"$DIR/plans.txt"
printf '\n%-8s %-22s %-22s %-22s %-22s %-22s\n' cursor "former ms / buffers" "devices" "online" \
  "tokens (range)" "three together"
for cursor in 0 $((DEVICES / 2)) $((DEVICES - PAGE_SIZE)); do
  echo "== cursor $cursor" >>"$DIR/plans.txt"
  read -r f_ms f_buf <<<"$(plan former "'$APP', $cursor, $PAGE_SIZE")"
  read -r d_ms d_buf <<<"$(plan devices "'$APP', $cursor, $PAGE_SIZE")"
  read -r o_ms o_buf <<<"$(plan online ":'users', '$APP'")"
  read -r t_ms t_buf <<<"$(plan tokens_in_range ":lo, :hi, '$APP'")"
  printf '%-8s %-22s %-22s %-22s %-22s %-22s\n' "$cursor" "$f_ms / $f_buf" "$d_ms / $d_buf" "$o_ms / $o_buf" \
    "$t_ms / $t_buf" "$(awk -v a="$d_ms" -v b="$o_ms" -v c="$t_ms" 'BEGIN { printf "%.3f", a + b + c }') / $((d_buf + o_buf + t_buf))"
done

# pgbench: a random full page per transaction; the three statements get their arrays from the page as the Java does
cat >"$DIR/former.pgb" <<'SQL'
\set cursor random(0, :pages) * :size
with page as (select d.device_id, d.user_id, d.device_sn from push_devices d where d.app_id = :app and d.device_id > :cursor and not exists (select 1 from push_users u where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled) and not exists (select 1 from auth_view_users v where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled) order by d.app_id, d.device_id limit :size) select g.device_id, g.user_id, g.device_sn, coalesce(p.online, false), k.channel, k.token, k.notifier_name, k.environment from page g left join lateral (select p.online from push_presence p where p.app_id = :app and p.user_id = g.user_id and p.device_sn = g.device_sn offset 0) p on true left join lateral (select k.channel, k.token, k.notifier_name, k.environment from push_device_tokens k where k.device_id = g.device_id offset 0) k on true order by g.device_id;
SQL
cat >"$DIR/three.pgb" <<'SQL'
\set cursor random(0, :pages) * :size
select /* devices */ d.device_id, d.user_id, d.device_sn from push_devices d where d.app_id = :app and d.device_id > :cursor and not exists (select 1 from push_users u where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled) and not exists (select 1 from auth_view_users v where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled) order by d.app_id, d.device_id limit :size;
select /* arrays, not part of the cost */ min(device_id) as lo, max(device_id) as hi, '{' || string_agg(distinct user_id::text, ',') || '}' as users from (select device_id, user_id from push_devices where app_id = :app and device_id > :cursor order by app_id, device_id limit :size) p \gset
select /* online */ u.user_id, p.device_sn from unnest(:users::bigint[]) u(user_id) cross join lateral (select p.device_sn from push_presence p where p.app_id = :app and p.user_id = u.user_id and p.online offset 0) p;
select /* tokens */ device_id, channel, token, notifier_name, environment from push_device_tokens where device_id between :lo and :hi and app_id = :app order by device_id;
SQL
bench() {
  "$BIN/pgbench" -h 127.0.0.1 -p "$PORT" -U postgres -n -M prepared -T "$DURATION" -c 1 -r -D app="$APP" \
    -D pages=$((DEVICES / PAGE_SIZE - 1)) -D size="$PAGE_SIZE" -f "$DIR/$1.pgb" postgres 2>&1
}
former_out="$(bench former)"
three_out="$(bench three)"
stmt_ms() { awk -v tag="$2" 'index($0, tag) { print $1 }' <<<"$1"; }
echo
echo "pgbench -M prepared, 1 client, $DURATION s, random page (ms per page, rows fetched):"
echo "  former single statement: $(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$former_out")"
d="$(stmt_ms "$three_out" '/* devices */')"
o="$(stmt_ms "$three_out" '/* online */')"
t="$(stmt_ms "$three_out" '/* tokens */')"
echo "  three statements: devices $d + online $o + tokens $t = $(awk -v a="$d" -v b="$o" -v c="$t" 'BEGIN { printf "%.3f", a + b + c }')"
echo
echo "plans (warm):"
sed 's/^/  /' "$DIR/plans.txt"

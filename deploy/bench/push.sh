#!/usr/bin/env bash
# Benchmark of push-service's accept path and audience expansion on the local stack (docs/benchmarks.md records
# the figures). One run:
#   1. creates a fresh app through the gateway (POST /app/create, platform key), switches push on for it, and
#      seeds DEVICES (1,000,000) devices straight into the push database with SQL generate_series (push_devices,
#      push_device_tokens, push_presence; no API calls: registering a million devices through auth-service would
#      take hours of bcrypt). Mix: 30 % APNs tokens, 20 % FCM, 40 % Huawei..Meizu (8 % each), 10 % no
#      provider token; 10 % of the devices online (push_presence), spread evenly over that mix; two devices per
#      user id; nobody opted out. Those users exist only in push-service's device registry.
#   2. prints EXPLAIN ANALYZE of the three statements that read one page of the expansion's audience
#      (AudiencePages) mid-table;
#   3. accept latency on an idle push-service: ACCEPT_N (300) POST /push/notify, audience all, at ACCEPT_C (4)
#      concurrent clients, through the gateway and directly on push-service's port. Every such task is scheduled
#      a day ahead (message.show_begin_time), so none of them is expanded: the measured expansion stays the only
#      one. The script marks them expired when it ends;
#   4. one POST /push/notify, audience all, due at once: the time from its answer until POST /push/task/detail
#      (polled every 100 ms) shows state dispatching; push-service's VmRSS every 200 ms; the CPU of each process
#      over that window; and, ACCEPT_DELAY (2) s into it, the accept latency again (ACCEPT_N calls, ACCEPT_C
#      clients, gateway): accepts while an expansion runs;
#   5. counts what the expansion wrote to the push.* topics (deploy/bench/PushTopics.java: records, bytes, bytes
#      on disk) and runs Kafka's own org.apache.kafka.tools.ProducerPerformance for the same record count to a
#      6-partition scratch topic with acks=all, the expander's compression.type and batching (linger.ms=5,
#      batch.size=256 KiB), --throughput -1: once with random payloads of the same average size (--record-size),
#      once with a sample of the expansion's own records (--payload-file: same sizes and compressibility);
#   6. delivery: push-worker (WORKERS replicas: 1, or 2 with a second process started for the run) sends the
#      same task through every channel to the provider simulators (the bench app's certificates point at them;
#      the 10 % online devices go to svcpush, find no live connection in message-service and fall back to their OS
#      channel). From acceptance until every counter is final (state done): deliveries per second, per channel,
#      push-worker's RSS (every 500 ms), the simulators' distinct and repeated deliveries, push-worker's CPU per
#      delivery per channel (its threads' CPU from /proc, by the channel each thread serves, and the shared sender
#      threads' CPU per channel as push-worker counts it), and Kafka's own
#      ConsumerPerformance reading the same number of records from the channel topics;
#   With PAUSE_WORKER=1, push-worker is stopped (SIGSTOP) from just before step 4's notify until the expansion is
#   measured, then resumed (SIGCONT): the expansion and its accepts run with no delivery beside them (the issue's
#   "expansion with nothing else running"), and the delivery afterwards with push-service idle; its rate is then
#   also printed from the resume. The pause stays below the consumers' session timeout (45 s) while the expansion
#   does; a longer one costs a rebalance at the resume, not data.
#   7. prints a summary with the targets (expansion <= 30 s, push-service RSS < 400 MB, >= 20,000 deliveries/s,
#      push-worker RSS < 300 MB), and the JIT's work in push-service and push-worker from their start until the
#      notify and from just before the notify until done (methods compiled, wall time of the compilations): how
#      cold the run was. The "services" line says whether each service runs with its AOT cache, how long it has
#      been up and how long it took to start.
# The previous run's bench app (kept in .local/bench/push-apps for inspection) is deleted from the push
# database when the next run starts.
# Usage: deploy/bench/push.sh   (starts the stack with deploy/local/up.sh unless BENCH_SKIP_UP=1)
# Knobs: DEVICES (1000000), ACCEPT_N (300), ACCEPT_C (4), ACCEPT_DELAY (2), LOAD_JAVA_OPTS, WORKERS (1 or 2),
#   DELIVERY_TIMEOUT (900 s), PAUSE_WORKER (0 or 1), AOT_CACHE (use or off, passed to up.sh: the services it starts
#   run with or without their AOT caches, docs/operations.md "AOT cache"; services already running keep theirs).
# The first push after a start, with and without the AOT caches (trained once by deploy/local/aot-train.sh):
#   deploy/local/down.sh && SKIP_BUILD=1 AOT_CACHE=off deploy/bench/push.sh
#   deploy/local/down.sh && SKIP_BUILD=1 AOT_CACHE=use deploy/bench/push.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../local/lib.sh" # ROOT, LOCAL, PG_PORT, KAFKA_PORT, SERVICE_PORT
source "$HERE/../local/aot.sh"
source "$HERE/cpu-table.sh"
cd "$ROOT"

DEVICES="${DEVICES:-1000000}"
ACCEPT_N="${ACCEPT_N:-300}"
ACCEPT_C="${ACCEPT_C:-4}"
ACCEPT_DELAY="${ACCEPT_DELAY:-2}"
WORKERS="${WORKERS:-1}"
PAUSE_WORKER="${PAUSE_WORKER:-0}"
DELIVERY_TIMEOUT="${DELIVERY_TIMEOUT:-900}"
LOAD_JAVA_OPTS="${LOAD_JAVA_OPTS:--XX:+UseSerialGC -Xmx256m}"
PAGE_SIZE=5000 # im.push.fanout.page-size of push-service (application.properties)
PERF_TOPIC=bench.push-perf
export KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT"
BENCH_DIR="$LOCAL/bench"
APPS_FILE="$BENCH_DIR/push-apps"
KAFKA_CP="$LOCAL/kafka/libs/*"

[[ "${BENCH_SKIP_UP:-}" == 1 ]] || deploy/local/up.sh >/dev/null
# shellcheck source=/dev/null
source "$LOCAL/env" # BASE_URL, PLATFORM_KEY (the demo app's APP_ID and ADMIN_TOKEN are replaced below)
mkdir -p "$BENCH_DIR"
# the load generator (deploy/bench/load), compiled once for the run's phases
rm -rf "$BENCH_DIR/load-classes"
javac -d "$BENCH_DIR/load-classes" deploy/bench/load/*.java

log() { echo "push-bench: $*" >&2; }
PSQL="$(server_psql)"
psql_push() { psql_as push "$@"; }
load() {
  local java_opts
  read -r -a java_opts <<<"$LOAD_JAVA_OPTS"
  java "${java_opts[@]}" -cp "$BENCH_DIR/load-classes" LoadGenerator "$@" local_dir="$LOCAL"
}
kafka_tool() {
  java -cp "$KAFKA_CP" "$@"
}
now_ms() { date +%s%3N; }

echo "bench: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))," \
  "$(free -g | awk '/Mem:/{print $2}') GiB, $(date -u +%Y-%m-%dT%H:%MZ), $DEVICES devices, page size $PAGE_SIZE"
# per service: AOT cache (mapped; not mapped: refused by the JVM; off), seconds since its start, and its start time
# as Quarkus logged it: a first push after a start is cold, and with an AOT cache maybe less so
services_line=""
for s in "${SERVICES[@]}"; do
  pid="$(running_pid "$s")" || continue
  state="$(aot_log_state "$LOGS" "$s" "$pid")"
  services_line+="$s: AOT cache $state, up $(ps -o etimes= -p "$pid" | tr -d ' ') s, started in"
  services_line+=" $(grep -o 'started in [0-9.]*s' "$LOGS/$s.log" 2>/dev/null | tail -n 1 | cut -d ' ' -f 3); "
  if [[ "$s" == push-* && "${AOT_CACHE:-use}" == off && "$state" != off ]] \
    || [[ "$s" == push-* && "${AOT_CACHE:-}" == use && "$state" != mapped ]]; then
    log "AOT_CACHE=$AOT_CACHE, but $s runs with AOT cache $state (already running: deploy/local/down.sh first;" \
      "no cache for this build: deploy/local/aot-train.sh)"
  fi
done
services_line="services (at push.sh's start): ${services_line%; }"
echo "$services_line"

# ---- 0. the previous run's app goes ----------------------------------------------------------------------
if [[ -s "$APPS_FILE" ]]; then
  old_apps="$(paste -sd, "$APPS_FILE")"
  log "deleting the devices and tasks of earlier bench apps ($old_apps)"
  psql_push -v apps="{$old_apps}" <<'SQL'
delete from push_tasks where app_id = any(:'apps'::text[]);
delete from push_request_ids where app_id = any(:'apps'::text[]);
delete from push_presence where app_id = any(:'apps'::text[]);
delete from push_devices where app_id = any(:'apps'::text[]);
delete from push_user_tags where app_id = any(:'apps'::text[]);
delete from push_users where app_id = any(:'apps'::text[]);
delete from push_apps where app_id = any(:'apps'::text[]);
SQL
  psql_push -c "vacuum analyze push_devices" -c "vacuum analyze push_device_tokens" \
    -c "vacuum analyze push_presence" -c "vacuum analyze push_tasks"
  : >"$APPS_FILE"
fi

# ---- 1. a fresh app with push on, and its devices ----------------------------------------------------------
created="$(curl -sS --max-time 10 -X POST -H "platform-key: $PLATFORM_KEY" -H 'Content-Type: application/json' \
  -d "{\"name\":\"push-bench-$(date +%s)\"}" "$BASE_URL/app/create")"
[[ "$(json_get "$created" 'd["code"]')" == 200 ]] || { echo "POST /app/create answered $created" >&2; exit 1; }
APP_ID="$(json_get "$created" 'd["data"]["app_id"]')"
ADMIN_TOKEN="$(json_get "$created" 'd["data"]["admin_token"]')"
export BASE_URL APP_ID ADMIN_TOKEN
echo "$APP_ID" >>"$APPS_FILE"
log "app $APP_ID created"
# the benchmark measures push-service, not the app's notify quota (docs/throttling.md): lift it
curl -sS --max-time 10 -X PUT -H "platform-key: $PLATFORM_KEY" -H "app_id: $APP_ID" -H 'Content-Type: application/json' \
  -d '{"quota":"push-notify","limit":1000000,"period_seconds":1,"burst":1000000}' "$BASE_URL/push/quota" \
  | grep -q '"code":200' || { echo "cannot lift the push-notify quota" >&2; exit 1; }

# Every task of the bench app that is still scheduled (the accept-latency ones) is expired, however the run ends.
cleanup() {
  [[ -z "${paused_pids:-}" ]] || kill -CONT $paused_pids 2>/dev/null || true
  [[ -z "${sampler_pid:-}" ]] || kill "$sampler_pid" 2>/dev/null || true
  [[ -z "${rss_sampler_pid:-}" ]] || kill "$rss_sampler_pid" 2>/dev/null || true
  [[ -z "${extra_worker_pid:-}" ]] || kill "$extra_worker_pid" 2>/dev/null || true
  psql_push -c "update push_tasks set state = 'expired', finished_at = now()
    where app_id = '$APP_ID' and state in ('scheduled', 'accepted')" >/dev/null 2>&1 || true
  kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --delete --if-exists \
    --topic "$PERF_TOPIC" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# push-service learns the app from auth.events: retry until it knows it
deadline=$((SECONDS + 30))
until [[ "$(curl -sS --max-time 10 -X POST -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
  "$BASE_URL/push/enable?value=true" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')" == 200 ]]; do
  ((SECONDS < deadline)) || { echo "POST /push/enable never answered 200" >&2; exit 1; }
  sleep 0.5
done
log "push enabled"
upload_simulator_certificates "$APP_ID" "$ADMIN_TOKEN" "%s-prod" # the seeded tokens' notifier_name
log "certificates uploaded (at the provider simulators)"

log "seeding $DEVICES devices (SQL generate_series)"
seed_start=$(now_ms)
psql_push -v app="$APP_ID" -v n="$DEVICES" -f deploy/bench/seed-push-devices.sql
seed_s="$(awk -v a="$seed_start" -v b="$(now_ms)" 'BEGIN { printf "%.1f", (b - a) / 1000 }')"
log "seeded in $seed_s s"
# (app ids are [a-z0-9]: safe inline; psql does not interpolate its variables in -c commands)
psql_push -c "select 'devices ' || count(*) from push_devices where app_id = '$APP_ID'" \
  -c "select 'tokens ' || string_agg(channel || ' ' || n, ', ' order by channel) from (select channel, count(*) n
      from push_device_tokens where app_id = '$APP_ID' group by channel) x" \
  -c "select 'online ' || count(*) from push_presence where app_id = '$APP_ID' and online" | sed 's/^/seed: /'

# ---- 2. one page of the audience (copies of AudiencePages' three statements, audience all: keep them alike) ----
mid_cursor="$(psql_push -c "select device_id from push_devices where app_id = '$APP_ID'
  order by device_id offset $((DEVICES / 2)) limit 1")"
page_plan="$(psql_push -v app="$APP_ID" <<SQL
select min(device_id) as lo, max(device_id) as hi, '{' || string_agg(distinct user_id::text, ',') || '}' as users
from (select device_id, user_id from push_devices where app_id = :'app' and device_id > $mid_cursor
  order by app_id, device_id limit $PAGE_SIZE) p \gset
explain (analyze, buffers, costs off)
select d.device_id, d.user_id, d.device_sn from push_devices d where d.app_id = :'app' and d.device_id > $mid_cursor
  and not exists (select 1 from push_users u where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled)
  and not exists (select 1 from auth_view_users v where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled)
  order by d.app_id, d.device_id limit $PAGE_SIZE;
explain (analyze, buffers, costs off)
select u.user_id, p.device_sn from unnest(:'users'::bigint[]) u(user_id)
  cross join lateral (select p.device_sn from push_presence p
    where p.app_id = :'app' and p.user_id = u.user_id and p.online offset 0) p;
explain (analyze, buffers, costs off)
select device_id, channel, token, notifier_name, environment from push_device_tokens
  where device_id between :lo and :hi and app_id = :'app' order by device_id;
SQL
)"
echo "page statements' plans (devices, online, tokens; one page of $PAGE_SIZE mid-table):"
sed 's/^/  /' <<<"$page_plan"
page_ms="$(awk '/^Execution Time:/ { ms += $3 } END { printf "%.3f", ms }' <<<"$page_plan")"

# ---- 3. accept latency, push-service idle -------------------------------------------------------------------
lines=()
run() {
  local out
  out="$(load "$@")"
  echo "$out"
  mapfile -t -O "${#lines[@]}" lines <<<"$out"
}
run push-accept c="$ACCEPT_C" n="$ACCEPT_N" where="via the gateway, push-service idle"
BASE_URL="http://127.0.0.1:${SERVICE_PORT[push-service]}" \
  run push-accept c="$ACCEPT_C" n="$ACCEPT_N" where="direct to push-service, idle"

# ---- 4. the expansion ---------------------------------------------------------------------------------------
worker_pids=("$(<"$LOCAL/pids/push-worker.pid")")
if [[ "$WORKERS" == 2 ]]; then
  start_second_replica push-worker "$SECOND_WORKER_PORT" || exit 1
  extra_worker_pid="$SECOND_REPLICA_PID"
  worker_pids+=("$extra_worker_pid")
  log "second push-worker started (pid $extra_worker_pid, port $SECOND_WORKER_PORT)"
fi
for url in $(for c in "${SIMULATOR_CHANNELS[@]}"; do simulator_url "$c"; done); do
  curl -fsS -k -X POST "$url/_sim/reset" >/dev/null
done
# Every 500 ms, without starting a process per sample (psql, ps and date started twice a second: ~0.4 of the
# 2 cores in a perf profile of a delivery, docs/benchmarks.md "Push"):
# - $samples, from one psql session (\watch): time, the state of the task being delivered (the newest of the app
#   that is not scheduled) and per channel its processed/target;
# - $worker_rss_file, from /proc with shell builtins: time and push-worker's RSS (sum over replicas, KiB).
samples="$BENCH_DIR/push-delivery.samples"
worker_rss_file="$BENCH_DIR/push-delivery.rss"
# psql itself in the background, not psql_push: $! must be the process that the kills below stop
PGPASSWORD=push PGSSLMODE=disable "$PSQL" -h 127.0.0.1 -p "$PG_PORT" -U push -d push -Atq >"$samples" 2>/dev/null <<SQL &
select (extract(epoch from clock_timestamp()) * 1000)::bigint || '|' || t.task_id || '|' || t.state || '|'
  || coalesce((select string_agg(n.channel || '=' || (n.sent + n.failed + n.rejected) || '/'
    || (n.target - n.fallback_out + n.fallback_in), ',' order by n.channel) from push_task_counts n
    where n.task_id = t.task_id), '')
from (select max(task_id) as task_id from push_tasks where app_id = '$APP_ID'
  and state in ('expanding', 'dispatching', 'done', 'expired')) m join push_tasks t on t.task_id = m.task_id
\watch 0.5
SQL
sampler_pid=$!
(
  exec {tick}<> <(:) # read -t on a pipe nobody writes to: a 500 ms pause without a sleep process
  while :; do
    rss=0
    for p in "${worker_pids[@]}"; do
      while read -r key value _; do
        [[ "$key" == VmRSS: ]] && { rss=$((rss + value)); break; }
      done <"/proc/$p/status" 2>/dev/null || true
    done
    echo "$((${EPOCHREALTIME/[.,]/} / 1000)) $rss"
    read -r -t 0.5 -u "$tick" _ || true
  done
) >"$worker_rss_file" &
rss_sampler_pid=$!
# CPU seconds (utime + stime) of one process or thread from its /proc/.../stat, 0 when it is gone. The fields are
# counted after the name's closing parenthesis: names may hold spaces (the JVM's "VM Thread", "C2 CompilerThre").
# utime and stime are the 14th and 15th fields, the 12th and 13th after the name.
stat_cpu_seconds() {
  sed 's/^.*) //' "$1" 2>/dev/null | awk '{ s = ($12 + $13) / 100 } END { print s + 0 }'
}
# CPU seconds of each push-worker thread, as "<thread name> <seconds>" lines (the kernel's 15-character names;
# threads of every replica): per channel CPU comes from the threads each channel has of its own
worker_thread_cpu() {
  local pid task
  for pid in "${worker_pids[@]}"; do
    for task in /proc/"$pid"/task/*; do
      echo "$(tr ' ' '_' <"$task/comm" 2>/dev/null) $(stat_cpu_seconds "$task/stat")"
    done
  done
}
# CPU seconds of the shared sender threads per channel, as "<channel> <seconds>" lines summed over the replicas:
# push-worker counts each piece of sender work for the channel of its batch (imcore_push_worker_sender_cpu_seconds_total)
worker_sender_cpu() {
  local port
  for port in "${SERVICE_PORT[push-worker]}" ${extra_worker_pid:+"$SECOND_WORKER_PORT"}; do
    curl -fsS --max-time 10 "http://127.0.0.1:$port/q/metrics" \
      | sed -n 's/^imcore_push_worker_sender_cpu_seconds_total{.*channel="\([a-z_]*\)".*} \(.*\)$/\1 \2/p'
  done | awk '{ s[$1] += $2 } END { for (c in s) print c, s[c] }'
}
# the JIT's work in push-service and push-worker over the push (methods compiled, time in the compiler threads):
# what separates a cold run from a warm one. jcmd starts a JVM, so this is read only before and after the push.
jit_counters() {
  local name
  for name in push-service push-worker; do
    jcmd "$(<"$LOCAL/pids/$name.pid")" PerfCounter.print 2>/dev/null | awk -v name="$name" -F= '
      /^sun.ci.totalCompiles=/ { n = $2 } /^java.ci.totalTime=/ { t = $2 } /^sun.os.hrt.frequency=/ { f = $2 }
      END { if (n != "" && f > 0) printf "%s %d %.1f\n", name, n, t / f }'
  done
}
jit_before="$(jit_counters)"
worker_threads_before="$(worker_thread_cpu)"
senders_before="$(worker_sender_cpu)"
kafka_tool deploy/bench/PushTopics.java snapshot "$BENCH_DIR/push-topics.before"
if [[ "$PAUSE_WORKER" == 1 ]]; then
  paused_pids="${worker_pids[*]}"
  kill -STOP $paused_pids
  log "push-worker paused (SIGSTOP) for the expansion"
fi
run push-expand accept_n="$ACCEPT_N" accept_c="$ACCEPT_C" accept_delay="$ACCEPT_DELAY" where="via the gateway"
if [[ -n "${paused_pids:-}" ]]; then
  kill -CONT $paused_pids
  paused_pids=""
  worker_resumed=$(now_ms)
  log "push-worker resumed (SIGCONT)"
fi
expand_line="$(printf '%s\n' "${lines[@]}" | grep '^EXPAND|')"
IFS='|' read -r _ task_id expand_s task_state devices_expanded batches_total target_sum targets first_page_s polls \
  <<<"$expand_line"
rss_line="$(printf '%s\n' "${lines[@]}" | grep '^RSS|push-service|')"
IFS='|' read -r _ _ rss_start rss_max rss_end rss_samples <<<"$rss_line"
cpu_line="$(printf '%s\n' "${lines[@]}" | grep '^CPU|push-expand|')"
psql_push -c "select 'push_tasks: state ' || state || ', pages ' || pages || ', devices_expanded ' || devices_expanded
  || ', batches_total ' || batches_total || ', cursor_device_id ' || cursor_device_id from push_tasks
  where task_id = $task_id"

# ---- 6 (first half). delivery until every counter is final -------------------------------------------------
log "expansion measured; waiting for the delivery of task $task_id"
# cumulative CPU seconds of each component (postgres: all its processes alive at the time)
cpu_seconds() {
  local name pid total
  for name in push-service simulators kafka message-service; do
    pid="$(<"$LOCAL/pids/$name.pid")"
    echo "$name $(stat_cpu_seconds "/proc/$pid/stat")"
  done
  total=0
  for pid in "${worker_pids[@]}"; do
    total="$(awk -v t="$total" -v s="$(stat_cpu_seconds "/proc/$pid/stat")" 'BEGIN { print t + s }')"
  done
  echo "push-worker $total"
  total=0
  for pid in $(pgrep -u postgres 2>/dev/null); do
    total="$(awk -v t="$total" -v s="$(stat_cpu_seconds "/proc/$pid/stat")" 'BEGIN { print t + s }')"
  done
  echo "postgres $total"
  echo "machine $(awk '/^cpu / { print ($2 + $3 + $4 + $7 + $8) / 100 }' /proc/stat)"
}
cpu_before="$(cpu_seconds)"
delivery_started=$(now_ms)
deadline=$((SECONDS + DELIVERY_TIMEOUT))
# the task's state from the sampler's newest line (no process per poll)
task_finished() {
  local lines sample_task state
  mapfile -t lines <"$samples"
  ((${#lines[@]} > 0)) || return 1
  IFS='|' read -r _ sample_task state _ <<<"${lines[-1]}"
  [[ "$sample_task" == "$task_id" && ("$state" == done || "$state" == expired) ]]
}
until task_finished; do
  ((SECONDS < deadline)) || { echo "task $task_id not done after $DELIVERY_TIMEOUT s" >&2; break; }
  kill -0 "$sampler_pid" 2>/dev/null || { echo "the delivery sampler (psql) stopped" >&2; exit 1; }
  sleep 0.5
done
delivery_wall="$(awk -v a="$delivery_started" -v b="$(now_ms)" 'BEGIN { print (b - a) / 1000 }')"
cpu_after="$(cpu_seconds)"
echo "CPU in cores over the delivery after the expansion ($delivery_wall s; postgres: its processes alive at both ends):"
join <(sort <<<"$cpu_before") <(sort <<<"$cpu_after") \
  | awk -v w="$delivery_wall" '{ printf "  %s %.2f\n", $1, ($3 - $2) / w }'
sleep 1 # one more sample at the final counts
kill "$sampler_pid" "$rss_sampler_pid" 2>/dev/null || true
sampler_pid=""
rss_sampler_pid=""
delivery_line="$(psql_push -F '|' -c "select t.state, extract(epoch from t.finished_at - t.created_at),
  (extract(epoch from t.created_at) * 1000)::bigint, t.batches_total, t.batches_done,
  sum(n.sent), sum(n.failed), sum(n.rejected), sum(n.fallback_in),
  string_agg(n.channel || ' ' || (n.target - n.fallback_out + n.fallback_in) || '/' || n.sent || '/' || n.failed
    || '/' || n.rejected, ', ' order by n.channel)
  from push_tasks t join push_task_counts n on n.task_id = t.task_id where t.task_id = $task_id
  group by t.state, t.finished_at, t.created_at, t.batches_total, t.batches_done")"
IFS='|' read -r d_state d_seconds d_created_ms d_batches d_batches_done d_sent d_failed d_rejected d_fallback \
  d_channels <<<"$delivery_line"
echo "delivery: task $task_id $d_state after $d_seconds s; batches $d_batches_done/$d_batches; sent $d_sent," \
  "failed $d_failed, rejected $d_rejected, fell back from svcpush $d_fallback"
echo "delivery per channel (target/sent/failed/rejected): $d_channels"
# The whole stack's CPU per delivery, from acceptance until every counter is final: the expansion window (its CPU
# line's stack cores x its seconds) plus the delivery after it; the simulators and the load generator left out.
stack_expand_s="$(tr '|' '\n' <<<"$cpu_line" | awk -F= -v s="$expand_s" '$1 == "stack" { printf "%.1f", $2 * s }')"
stack_delivery_s="$(join <(sort <<<"$cpu_before") <(sort <<<"$cpu_after") |
  awk '$1 != "simulators" && $1 != "machine" { c += $3 - $2 } END { printf "%.1f", c }')"
awk -v e="$stack_expand_s" -v d="$stack_delivery_s" -v n="$d_sent" 'BEGIN {
  printf "whole-stack CPU per delivery: (%.1f expansion + %.1f delivery) CPU-s / %d sent = %.1f µs\n", e, d, n, (n > 0 ? 1e6 * (e + d) / n : 0) }'
# push-worker's CPU per delivery per channel, from acceptance until done: each channel's consumer thread
# (push-<channel>-consumer), the shared sender threads' CPU counted for the channel of each batch (svcpush's
# includes the fallback sends to OS channels of the devices it found offline), plus the event loops of the
# per-token providers (apns-client: ios; vert.x-eventloop: cloud's FCM client). The vendors' JDK HTTP client
# threads (HttpClient-*) serve the five vendor channels together: shared among them by their deliveries. The rest
# (Kafka client, GC, JIT, metrics, and the sender threads' time outside any batch) is shown apart and counted only
# in the total.
python3 - "$d_channels" <(echo "$worker_threads_before") <(worker_thread_cpu) <(echo "$senders_before") \
  <(worker_sender_cpu) <<'PY'
import re, sys
channels, before_file, after_file, senders_before_file, senders_after_file = sys.argv[1:6]
def grouped(path):
    groups = {}
    for line in open(path):
        name, seconds = line.rsplit(" ", 1)
        m = re.match(r"push-([a-z_]+?)-consumer", name)
        if name.startswith("push-sender"):
            group = "senders"
        elif m:
            group = m.group(1)
        elif name.startswith("apns-client"):
            group = "ios"
        elif name.startswith("vert.x-eventloo"):
            group = "cloud"
        elif name.startswith("HttpClient"):
            group = "vendor http"
        else:
            group = "other"
        groups[group] = groups.get(group, 0) + float(seconds)
    return groups
def by_channel(path):
    return {c: float(v) for c, v in (line.split() for line in open(path) if line.strip())}
before, after = grouped(before_file), grouped(after_file)
spent = {g: after.get(g, 0) - before.get(g, 0) for g in after}
sender_before, sender_after = by_channel(senders_before_file), by_channel(senders_after_file)
# the sender threads' CPU goes to the channels it was counted for; what no batch was counted for stays apart
senders = spent.pop("senders", 0)
for channel, seconds in sender_after.items():
    own = seconds - sender_before.get(channel, 0)
    spent[channel] = spent.get(channel, 0) + own
    senders -= own
spent["other"] = spent.get("other", 0) + senders
processed = {}
for item in channels.split(", "):
    name, counts = item.split(" ")
    target, sent, failed, rejected = map(int, counts.split("/"))
    processed[name] = sent + failed + rejected
vendors = [c for c in processed if c.startswith("vendor_")]
vendor_total = sum(processed[c] for c in vendors) or 1
parts = []
for channel in sorted(processed):
    own = spent.get(channel, 0)
    share = spent.get("vendor http", 0) * processed[channel] / vendor_total if channel in vendors else 0
    n = processed[channel]
    parts.append(f"{channel} {(own + share) / n * 1e6:.0f} µs ({own + share:.1f} CPU-s / {n})" if n else f"{channel} -")
total = sum(spent.values())
print("push-worker CPU per delivery per channel: " + ", ".join(parts))
print(f"push-worker CPU, whole push: {total:.1f} CPU-s / {sum(processed.values())} = "
      f"{total / max(1, sum(processed.values())) * 1e6:.1f} µs per delivery; not in any channel: "
      f"{spent.get('other', 0):.1f} CPU-s (Kafka client, GC, JIT, metrics, idle senders); vendor HTTP client threads "
      f"{spent.get('vendor http', 0):.1f} CPU-s (shared among the vendor channels above)")
PY
# per channel: the first sample at which its processed count reached its target, from acceptance
channel_rates="$(python3 - "$samples" "$worker_rss_file" "$d_created_ms" "$task_id" <<'PY'
import sys
samples, rss_samples, created, task = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rss_max = max((int(line.split()[1]) for line in open(rss_samples) if len(line.split()) == 2), default=0)
rows = []
for line in open(samples):
    parts = line.strip().split("|")
    if len(parts) != 4 or parts[1] != task:
        continue
    counts = {}
    for item in (parts[3].split(",") if parts[3] else []):
        channel, pair = item.split("=")
        counts[channel] = tuple(map(int, pair.split("/")))
    rows.append((int(parts[0]), counts))
# a channel's target grows while svcpush devices fall back to it: compare with the final target
final = rows[-1][1] if rows else {}
done = {}
for t, counts in rows:
    for channel, (processed, _) in counts.items():
        target = final[channel][1]
        if target > 0 and processed >= target and channel not in done:
            done[channel] = (target, (t - created) / 1000)
rates = ", ".join(f"{c} {n} in {s:.1f} s = {n / s:.0f}/s" for c, (n, s) in sorted(done.items()) if s > 0)
print(f"{rss_max}|{rates}")
PY
)"
IFS='|' read -r worker_rss_max_kb channel_rate_text <<<"$channel_rates"
echo "delivery rate per channel (complete at the first 500 ms sample): $channel_rate_text"
sim_stats=""
for c in "${SIMULATOR_CHANNELS[@]}"; do
  st="$(curl -fsS -k "$(simulator_url "$c")/_sim/stats")"
  sim_stats+="$c $(json_get "$st" 'str(d["distinct_tokens"]) + " distinct/" + str(d["duplicates"]) + " repeated"'), "
done
echo "simulators (accepted devices): ${sim_stats%, }"

# ---- 5. what it wrote, and Kafka's own producer for the same records ---------------------------------------
topics_line="$(kafka_tool deploy/bench/PushTopics.java count "$BENCH_DIR/push-topics.before" "$task_id" \
  "$BENCH_DIR/push-payloads.txt" 1000)"
echo "$topics_line"
IFS='|' read -r _ records bytes avg_bytes disk_bytes per_topic <<<"$topics_line"

kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --delete --if-exists \
  --topic "$PERF_TOPIC" >/dev/null 2>&1 || true
sleep 1
kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create \
  --topic "$PERF_TOPIC" --partitions 6 --replication-factor 1 >/dev/null
# the expander's compression.type: what the stack gave push-service (up.sh: none), else its default (lz4)
expander_compression="$(tr '\0' '\n' <"/proc/$(<"$LOCAL/pids/push-service.pid")/environ" \
  | sed -n 's/^IM_PUSH_FANOUT_COMPRESSION=//p')"
expander_compression="${expander_compression:-lz4}"
# perf PAYLOAD_ARGS...: ProducerPerformance's summary line ("N records sent, R records/sec (M MB/sec), ...")
perf() {
  kafka_tool org.apache.kafka.tools.ProducerPerformance --topic "$PERF_TOPIC" --num-records "$records" \
    --throughput -1 "$@" --producer-props bootstrap.servers="$KAFKA_BOOTSTRAP" acks=all \
    compression.type="$expander_compression" \
    linger.ms=5 batch.size=262144 max.request.size=8388608 2>/dev/null | grep 'records sent' | tail -n 1
}
perf_random="$(perf --record-size "$avg_bytes")"
echo "ProducerPerformance ($expander_compression), random payloads of $avg_bytes bytes: $perf_random"
perf_real="$(perf --payload-file "$BENCH_DIR/push-payloads.txt")"
echo "ProducerPerformance, the expansion's own records (1000 sampled): $perf_real"
# seconds = records / (records/sec)
perf_seconds() { awk '{ for (i = 1; i <= NF; i++) if ($i == "records/sec") { printf "%.2f", $1 / $(i - 1); exit } }' <<<"$1"; }
perf_mbs() { sed -n 's/.*(\([0-9.]*\) MB\/sec).*/\1/p' <<<"$1"; }
perf_random_s="$(perf_seconds "$perf_random")"
perf_real_s="$(perf_seconds "$perf_real")"

# Kafka's own consumer over the same number of channel-topic records (read from the start of the topics)
consume_line="$(kafka_tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$KAFKA_BOOTSTRAP" \
  --include 'push\.(ios|cloud|vendor_[a-e]|svcpush)' --num-records "$d_batches" --group "bench-consume-$$" \
  --timeout 60000 --hide-header 2>/dev/null | tail -n 1)"
echo "ConsumerPerformance, $d_batches records of the channel topics: $consume_line"
consume_rate="$(awk -F', *' '{ print $6 }' <<<"$consume_line")"

# ---- 7. summary ---------------------------------------------------------------------------------------------
value() { # value FIELD NAME_PART: field FIELD of the RESULT line whose name contains NAME_PART
  printf '%s\n' "${lines[@]}" | grep '^RESULT|' | grep -F -- "$2" | head -n 1 | cut -d'|' -f"$1"
}
echo
echo "| phase | calls/s | p50 ms | p99 ms | errors | measured calls | notes |"
echo "|---|---|---|---|---|---|---|"
for line in "${lines[@]}"; do
  [[ "$line" == RESULT\|* ]] || continue
  echo "| $(cut -d'|' -f2- <<<"$line" | sed 's/|/ | /g') |"
done
echo
echo "CPU in cores (of $(nproc)) over the expansion ($expand_s s):"
cpu_table processes "$cpu_line"
push_cpu="$(tr '|' '\n' <<<"$cpu_line" | sed -n 's/^push-service=//p')"
pg_cpu="$(tr '|' '\n' <<<"$cpu_line" | sed -n 's/^postgres=//p')"
kafka_cpu="$(tr '|' '\n' <<<"$cpu_line" | sed -n 's/^kafka=//p')"
echo
awk -v devices="$DEVICES" -v seed="$seed_s" -v task="$task_id" -v s="$expand_s" -v state="$task_state" \
  -v expanded="$devices_expanded" -v batches="$batches_total" -v tsum="$target_sum" -v targets="$targets" \
  -v first="$first_page_s" -v polls="$polls" -v page_ms="$page_ms" -v page_size="$PAGE_SIZE" \
  -v records="$records" -v bytes="$bytes" -v avg="$avg_bytes" -v disk="$disk_bytes" -v per_topic="$per_topic" \
  -v rs="$rss_start" -v rm="$rss_max" -v re="$rss_end" -v rn="$rss_samples" \
  -v pr="$perf_random_s" -v prm="$(perf_mbs "$perf_random")" -v pp="$perf_real_s" -v ppm="$(perf_mbs "$perf_real")" \
  -v pcpu="$push_cpu" -v gcpu="$pg_cpu" -v kcpu="$kafka_cpu" \
  -v ag50="$(value 4 'via the gateway, push-service idle')" -v ag99="$(value 5 'via the gateway, push-service idle')" \
  -v ad50="$(value 4 'direct to push-service')" -v ad99="$(value 5 'direct to push-service')" \
  -v al50="$(value 4 'during the expansion')" -v al99="$(value 5 'during the expansion')" 'BEGIN {
  pages = int((expanded + page_size - 1) / page_size)
  printf "seed: %d devices in %.1f s (SQL)\n", devices, seed
  printf "expansion: task %s, %s devices -> %s after %.2f s (%d polls; first page seen after %.2f s); %d pages, %s batches\n", task, expanded, state, s, polls, first, pages, batches
  printf "expansion: %.0f devices/s; targets %s (sum %s, unreachable %d)\n", expanded / s, targets, tsum, expanded - tsum
  printf "expansion: one page (three statements) mid-table %.1f ms in EXPLAIN ANALYZE -> ~%.1f s of the %.2f s for %d pages\n", page_ms, page_ms * pages / 1000, s, pages
  printf "expansion CPU: push-service %.1f CPU-s (%.2f cores), postgres %.1f CPU-s, kafka %.1f CPU-s\n", pcpu * s, pcpu, gcpu * s, kcpu * s
  printf "kafka: the expansion wrote %d records (batches + checkpoints), %.1f MB (key+value), avg %d bytes; %.1f MB on disk (compressed x%.1f)\n", records, bytes / 1e6, avg, disk / 1e6, (disk > 0 ? bytes / disk : 0)
  printf "kafka: per topic records/bytes: %s\n", per_topic
  printf "ProducerPerformance, same count, random %d-byte payloads: %.2f s (%s MB/s)\n", avg, pr, prm
  printf "ProducerPerformance, same count, a sample of the expansion records: %.2f s (%s MB/s)\n", pp, ppm
  printf "ratio: expansion time / ProducerPerformance time = %.2f / %.2f = %.1f (random payloads); %.2f / %.2f = %.1f (own records)\n", s, pr, (pr > 0 ? s / pr : 0), s, pp, (pp > 0 ? s / pp : 0)
  printf "accept p50/p99 ms: gateway idle %s/%s, direct idle %s/%s, gateway during the expansion %s/%s\n", ag50, ag99, ad50, ad99, al50, al99
  printf "rss push-service: %.1f MiB before, max %.1f MiB during (%d samples), %.1f MiB at the end\n", rs, rm, rn, re
  printf "target: expansion of %d devices <= 30 s: %.2f s -> %s\n", devices, s, (s <= 30 && (state == "dispatching" || state == "done") ? "met" : "MISSED")
  printf "target: push-service RSS < 400 MB during the expansion: max %.1f MiB = %.1f MB -> %s\n", rm, rm * 1.048576, (rm * 1.048576 < 400 ? "met" : "MISSED")
}'
awk -v workers="$WORKERS" -v state="$d_state" -v s="$d_seconds" -v sent="$d_sent" -v failed="$d_failed" \
  -v rejected="$d_rejected" -v batches="$d_batches" -v rss="$worker_rss_max_kb" -v consume="$consume_rate" \
  -v resumed="${worker_resumed:-0}" -v created="$d_created_ms" 'BEGIN {
  processed = sent + failed + rejected
  printf "delivery (%d push-worker replica(s)): %d targets final (%s) %.1f s after acceptance: %.0f deliveries/s (%.0f sent/s)\n", workers, processed, state, s, processed / s, sent / s
  printf "delivery vs Kafka: push-worker %.1f records/s (%d records); ConsumerPerformance %s records/s -> ratio %.0f\n", batches / s, batches, consume, (batches > 0 && s > 0 ? consume / (batches / s) : 0)
  if (resumed > 0) {
    resumed_s = s - (resumed - created) / 1000
    printf "delivery from the resume of push-worker (PAUSE_WORKER=1; push-service idle): %.1f s: %.0f deliveries/s\n", resumed_s, processed / resumed_s
  }
  printf "target: >= 20,000 deliveries/s on 2 cores: %.0f/s -> %s\n", processed / s, (processed / s >= 20000 && state == "done" ? "met" : "MISSED")
  printf "target: push-worker RSS < 300 MB: max %.1f MiB = %.1f MB (sum of %d replica(s)) -> %s\n", rss / 1024, rss * 1.024 / 1000, workers, (rss > 0 && rss * 1.024 / 1000 < 300 * workers ? "met" : "MISSED")
}'
jit_after="$(jit_counters)"
echo "$services_line"
awk '{ printf "JIT from the start until the notify, %s: %d methods compiled, %.1f s in the compiler threads\n", $1, $2, $3 }' \
  <<<"$jit_before"
awk 'NR == FNR { n[$1] = $2; t[$1] = $3; next } $1 in n {
  printf "JIT over the push, %s: %d methods compiled, %.1f s in the compiler threads (wall time of the compilations)\n",
    $1, $2 - n[$1], $3 - t[$1] }' <(echo "$jit_before") <(echo "$jit_after")
for pidfile in "$LOCAL"/pids/*.pid; do
  name="$(basename "$pidfile" .pid)"
  rss_kb="$(ps -o rss= -p "$(<"$pidfile")" 2>/dev/null || true)"
  [[ -n "$rss_kb" ]] && echo "rss $name: $((rss_kb / 1024)) MiB"
done
for s in push-service push-worker; do
  warnings="$(grep -cE ' (WARN|ERROR) ' "$LOCAL/logs/$s.log" || true)"
  echo "$s log: $warnings WARN/ERROR lines in total (since it started)"
done

#!/usr/bin/env bash
# Benchmark of message-service through the local stack's gateway (docs/benchmarks.md records the figures).
# One load generator, deploy/bench/load (JDK only, compiled with javac at the start), measures for
# DURATION seconds each, after WARMUP seconds that are run but not counted:
#   1. 1:1 text sends, SEND_CONCURRENCY senders (distinct users, each to its own peer), closed loop;
#   2. 1:1 text sends at a fixed RATE per second, open loop, latency from each send's scheduled time;
#   3. sends to a GROUP_SIZE-member group by GROUP_CONCURRENCY members, closed loop;
#   4. conversation pages (GET /message/conversation, limit 20), READ_CONCURRENCY readers;
#   5. baselines at SEND_CONCURRENCY: GET /user/device/list (auth-service) and nginx's own no-op (/bench-noop);
#   6. WS_CONNECTIONS authenticated idle WebSockets held WS_HOLD seconds, with message-service's VmRSS.
# PHASES=offline-push runs instead the offline push phases (deploy/bench/load/OfflinePushWorkload.java):
# OFFLINE_RECIPIENTS users with a phone each and a phone-maker token (demo-vendor_a..e), never
# connected; 1:1 sends to them at RATE per second, open loop, and the time from each send's answer to the provider
# simulator's notification; the same sends with message-service restarted with offline push off (the send rate
# beside it; OFFLINE_COMPARE=0 skips it and the restarts); GROUP_MESSAGES messages to a 500-member group of 490
# offline members (and 9 with a WebSocket), each timed until all 490 notifications arrived.
# PHASES=live measures the live path (deploy/bench/load/LiveWorkload.java): a second message-service replica is
# started (lib.sh start_second_replica, port SERVICE_PORT_BASE+6); SEND_CONCURRENCY peers each connect a
# WebSocket straight to a replica's port, alternately the gateway's replica and the second one (so half the messages
# cross replicas through NOTIFY); then 1:1 sends to them through the gateway, closed loop, each timed from the send's
# start to the `message` frame on the recipient's socket (acked as a client does), LIVE_ROUNDS times (the first cold,
# the second replica just started; the next warm). Frames still missing after LIVE_GRACE seconds are reported. The
# second replica is stopped at the end when this run started it.
# PHASES=files measures files (deploy/bench/load/FileWorkload.java, docs/files.md): upload-URL issuance
# (POST /file/upload) and completion (POST /file/complete of FILES distinct 1 KiB files PUT to the object store
# beforehand), SEND_CONCURRENCY callers each, closed loop; then one FILE_MB MiB file PUT straight to the object store
# and completed, with message-service's VmRSS before, at its peaks and after (the bytes never pass through the
# service on upload; completion streams them once through a 64 KiB buffer to hash them).
# PHASES=ab compares this checkout's message-service with AB_CHECKOUT's (another checkout, message-service built;
# unset: this checkout alone) on one stack: per round, each build's message-service is restarted and runs AB_PHASE
# (send-closed: the closed-loop 1:1 sends; conversation: the pages; ws-idle: the WebSocket connects) AB_RUNS times;
# the summary gives each build's first run after its start (JIT still compiling) and its warm runs (3rd on).
# PHASES=webhook measures the apps' webhooks (docs/webhooks.md) on the demo app, whose endpoint is the local stack's
# receiver (push-simulators' WebhookReceiver): the closed-loop 1:1 sends without a before-send hook, then with one
# that answers after WEBHOOK_HOOK_MS (5) ms (the receiver's delay_ms), the second's rate as a share of the first's
# (issue 51: >= 50 %); then how fast message-service's one dispatcher delivers the events those sends queued
# (message.created, one per send): delivered per second over WEBHOOK_DRAIN (20) seconds, read from
# imcore_webhook_deliveries_total, with WEBHOOK_BATCH (1) events per request. The demo app's settings of up.sh
# (all events, no hook) are restored at the end.
# PHASES=sync measures GET /message/sync (docs/api-decisions.md "Sync"): SYNC_CHANGES (1000) changes for one user
# (its own sends), then SYNC_CONCURRENCY (100) readers sync from the cursor before them, pages of 100, closed loop;
# syncs/s, p99 and the stack's CPU per sync (issue 49: >= 4,000 syncs/s warm).
# Setup (users, tokens, the group, 20 messages per conversation) is kept in $LOCAL/bench/message-state.properties
# and reused while its tokens work (BENCH_FORCE_SETUP=1 makes new users).
# Usage: deploy/bench/message.sh   (starts the stack with deploy/local/up.sh unless BENCH_SKIP_UP=1)
# Knobs: DURATION (default 20), WARMUP (3), SEND_CONCURRENCY (100), RATE (1000), RATE_CONNECTIONS (100),
#        GROUP_SIZE (500), GROUP_CONCURRENCY (10), READ_CONCURRENCY (64), WS_CONNECTIONS (2000), WS_HOLD (20),
#        LOAD_CLIENT (raw: own HTTP/1.1 connection pool; jdk: java.net.http.HttpClient), LOAD_JAVA_OPTS,
#        PHASES (message; offline-push; live; files; ab; webhook; sync), SYNC_CHANGES (1000), SYNC_CONCURRENCY (100), OFFLINE_RECIPIENTS (1000), OFFLINE_COMPARE (1), GROUP_MESSAGES (5),
#        LIVE_ROUNDS (2), LIVE_GRACE (10), LIVE_ACK (1: the devices ack each message frame; 0: no acks),
#        AB_CHECKOUT, AB_JAVA (the java for AB_CHECKOUT's turns), AB_PHASE (send-closed), AB_ROUNDS (2), AB_RUNS (5),
#        OFFLINE_SETTLE (900: seconds to wait for push-service's offline push before the first phase and after the
#        group phase, whose 500 recipients per message are each a trace row), OTHER_APP_DEVICES (1000000),
#        FULL_READ_BLOCKS (5000), WEBHOOK_HOOK_MS (5), WEBHOOK_DRAIN (20), WEBHOOK_BATCH (1), FILES (20000),
#        FILE_MB (100).
# PHASES=offline-push and live first make sure the push database holds OTHER_APP_DEVICES devices of another app
# (bench-other-app; push.sh's mix, deploy/bench/seed-push-devices.sql, ~30 s once, kept between runs), as a
# production database holds millions: a statement whose cost grows with the tables shows here. Around their measured
# phases they read pg_stat_statements (the stack started with PG_STAT_STATEMENTS=1) and fail the run when a
# statement of message-service or push-service read more than FULL_READ_BLOCKS 8 KiB blocks per call on average
# (a table read in full: push_device_tokens alone is ~30,000 blocks with those devices).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../local/lib.sh
source "$HERE/../local/lib.sh" # ROOT, LOCAL (LOCAL_DIR), PIDS
source "$HERE/cpu-table.sh"
cd "$ROOT"

DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-3}"
SEND_CONCURRENCY="${SEND_CONCURRENCY:-100}"
RATE="${RATE:-1000}"
RATE_CONNECTIONS="${RATE_CONNECTIONS:-100}"
GROUP_SIZE="${GROUP_SIZE:-500}"
GROUP_CONCURRENCY="${GROUP_CONCURRENCY:-10}"
READ_CONCURRENCY="${READ_CONCURRENCY:-64}"
WS_CONNECTIONS="${WS_CONNECTIONS:-2000}"
WS_HOLD="${WS_HOLD:-20}"
LOAD_CLIENT="${LOAD_CLIENT:-raw}"
LOAD_JAVA_OPTS="${LOAD_JAVA_OPTS:--XX:+UseSerialGC -Xmx512m}"
PHASES="${PHASES:-message}"
OFFLINE_RECIPIENTS="${OFFLINE_RECIPIENTS:-1000}"
OFFLINE_COMPARE="${OFFLINE_COMPARE:-1}"
GROUP_MESSAGES="${GROUP_MESSAGES:-5}"
AB_ROUNDS="${AB_ROUNDS:-2}"
AB_RUNS="${AB_RUNS:-5}"
AB_PHASE="${AB_PHASE:-send-closed}"
LIVE_ROUNDS="${LIVE_ROUNDS:-2}"
LIVE_GRACE="${LIVE_GRACE:-10}"
LIVE_ACK="${LIVE_ACK:-1}"
OFFLINE_SETTLE="${OFFLINE_SETTLE:-900}"
OTHER_APP_DEVICES="${OTHER_APP_DEVICES:-1000000}"
FULL_READ_BLOCKS="${FULL_READ_BLOCKS:-5000}"
WEBHOOK_HOOK_MS="${WEBHOOK_HOOK_MS:-5}"
WEBHOOK_DRAIN="${WEBHOOK_DRAIN:-20}"
WEBHOOK_BATCH="${WEBHOOK_BATCH:-1}"
FILES="${FILES:-20000}"
FILE_MB="${FILE_MB:-100}"
[[ "$PHASES" =~ ^(message|offline-push|live|files|ab|webhook|sync)$ ]] ||
  { echo "PHASES must be message, offline-push, live, files, ab, webhook or sync" >&2; exit 2; }
[[ "$AB_PHASE" =~ ^(send-closed|conversation|ws-idle)$ ]] ||
  { echo "AB_PHASE must be send-closed, conversation or ws-idle" >&2; exit 2; }
if [[ "$PHASES" == ab && -n "${AB_CHECKOUT:-}" && ! -f "$AB_CHECKOUT/message-service/target/quarkus-app/quarkus-run.jar" ]]; then
  echo "PHASES=ab: AB_CHECKOUT must be another checkout with message-service built" >&2
  exit 2
fi
PAIRS=100 # users who send (each with a peer); 100 users x 20 devices make the 2,000 WebSockets

[[ "${BENCH_SKIP_UP:-}" == 1 ]] || deploy/local/up.sh >/dev/null
# shellcheck source=/dev/null
source "$LOCAL/env"
export BASE_URL APP_ID ADMIN_TOKEN

# The benchmark measures the service, not the demo app's quota (docs/throttling.md): lift it for the demo app.
for quota in message-send message-send-per-user message-notify file; do
  curl -sS --max-time 10 -X PUT -H "platform-key: $PLATFORM_KEY" -H "app_id: $APP_ID" \
    -H 'Content-Type: application/json' \
    -d "{\"quota\":\"$quota\",\"limit\":1000000,\"period_seconds\":1,\"burst\":1000000}" \
    "$BASE_URL/message/quota" | grep -q '"code":200' || { echo "cannot lift the $quota quota" >&2; exit 1; }
done

metrics_dir="$(mktemp -d)"
second_replica_pid="" # the second message-service replica, when this run started it (PHASES=live)
cleanup() {
  rm -rf "$metrics_dir"
  if [[ -n "$second_replica_pid" ]] && running_pid message-service-2 >/dev/null; then
    stop_running message-service-2 20
    echo "bench: second message-service replica stopped" >&2
  fi
}
trap cleanup EXIT
# webhook_settings JSON: saves the demo app's webhook and gives the receiver its new secret (each save rotates it).
webhook_settings() {
  local response secret
  response="$(curl -sS --max-time 10 -X POST -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
    -H 'Content-Type: application/json' -d "$1" "$BASE_URL/app/webhook")"
  secret="$(json_get "$response" 'd["data"]["secret"]')" || { echo "POST /app/webhook answered: $response" >&2; exit 1; }
  curl -fsS --max-time 5 -X POST -H 'Content-Type: application/json' --data "{\"secret\":\"$secret\"}" \
    "$WEBHOOK_RECEIVER_URL/_sim/secret" >/dev/null
}

# The demo app's webhook (up.sh: every event to the local receiver) is a feature each phase but PHASES=webhook
# leaves out: its events are switched off for the run (the delivery path's figures stay comparable) and back on at
# the end.
if [[ "$PHASES" != webhook ]]; then
  webhook_settings "{\"url\":\"$WEBHOOK_RECEIVER_URL/demo\",\"events\":[]}"
  trap 'webhook_settings "{\"url\":\"$WEBHOOK_RECEIVER_URL/demo\",\"events\":[\"*\"]}"; cleanup' EXIT
fi
javac -d "$metrics_dir/classes" deploy/bench/load/*.java
# load PHASE key=value...: runs one phase; its RESULT|, CPU| and RSS| lines go to stdout, progress to stderr.
load() {
  local java_opts
  read -r -a java_opts <<<"$LOAD_JAVA_OPTS"
  java "${java_opts[@]}" -cp "$metrics_dir/classes" LoadGenerator "$@" client="$LOAD_CLIENT" pairs="$PAIRS" \
    register_batch=20 local_dir="$LOCAL" simulator_port="$SIMULATOR_PORT" duration="$DURATION" warmup="$WARMUP"
}

# offline_push_settle WHAT: waits until push-service's offline push has committed every message event (its consumer
# group's lag 0), so that one phase's trailing work (a group send's recipients, each a trace row) does not load the
# next phase; prints how long it took, up to OFFLINE_SETTLE seconds.
offline_push_settle() {
  local start=$SECONDS lag
  while true; do
    lag="$(java -cp "$LOCAL/kafka/libs/*" org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
      --bootstrap-server "127.0.0.1:$KAFKA_PORT" --describe --group push-service.offline-push 2>/dev/null |
      awk '$1 == "push-service.offline-push" && $6 ~ /^[0-9]+$/ { lag += $6 } END { print lag + 0 }')"
    if [[ "$lag" == 0 ]]; then
      echo "SETTLE|$1|offline push caught up after $((SECONDS - start)) s"
      return
    fi
    if ((SECONDS - start >= OFFLINE_SETTLE)); then
      echo "SETTLE|$1|offline push still $lag message events behind after $OFFLINE_SETTLE s: later phases share the machine with it"
      return
    fi
    sleep 5
  done
}

rss_mib() {
  local pid
  pid="$(<"$PIDS/$1.pid")"
  awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status"
}

echo "bench: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(date -u +%Y-%m-%dT%H:%MZ)," \
  "${DURATION}s per phase after ${WARMUP}s warm-up, load client $LOAD_CLIENT"
rss_start="$(rss_mib message-service)"

setup_line="$(load setup group_size="$GROUP_SIZE" force="${BENCH_FORCE_SETUP:-0}")"
echo "$setup_line"
lines=()
run() {
  local out
  out="$(load "$@")"
  echo "$out"
  mapfile -t -O "${#lines[@]}" lines <<<"$out"
}
# value_of FIELD_INDEX NAME_PREFIX NTH: a field of the NTH RESULT line whose name starts with NAME_PREFIX
value_of() {
  local line found=0
  for line in "${lines[@]}"; do
    if [[ "$line" == "RESULT|$2"* ]]; then
      found=$((found + 1))
      if ((found == $3)); then
        cut -d'|' -f"$1" <<<"$line"
        return
      fi
    fi
  done
  echo nan
}
# scrape FILE: message-service's metrics, straight from its port, and how long the threads of message-service and
# of PostgreSQL have waited for a CPU so far (the kernel's run-queue time per thread, /proc/PID/task/*/schedstat) as
# bench_cpu_wait_seconds_total lines, one per thread. latency_split PHASE BEFORE AFTER: where that phase's send latency went
# (deploy/bench/latency-split.awk).
scrape() {
  curl -sS --max-time 10 "http://127.0.0.1:${SERVICE_PORT[message-service]}/q/metrics" >"$1"
  local postmaster
  postmaster="$(<"$PIDS/postgres.pid")"
  cpu_wait_line message-service "$(<"$PIDS/message-service.pid")" >>"$1"
  # shellcheck disable=SC2046 # one pid per word
  cpu_wait_line postgres "$postmaster" $(pgrep -P "$postmaster") >>"$1"
}
# One line per thread: a phase's wait is summed over the threads alive at its end, so a thread that ends during
# the phase (an idle executor thread) takes neither its earlier wait nor its part of the phase's out of the sum.
cpu_wait_line() {
  local name="$1" pid
  shift
  # grep -H prefixes each line with its file, /proc/PID/task/TID/schedstat, and skips a thread that has just ended
  for pid in "$@"; do grep -H . /proc/"$pid"/task/*/schedstat 2>/dev/null || true; done |
    awk -v name="$name" '{ split($1, path, "/")
      printf "bench_cpu_wait_seconds_total{process=\"%s\",tid=\"%s\"} %.6f\n", name, path[5], $2 / 1e9 }'
}
split_lines=()
latency_split() {
  mapfile -t -O "${#split_lines[@]}" split_lines < <(awk -v phase="$1" -f "$HERE/latency-split.awk" "$2" "$3" | sort)
}

# The RESULT lines as a table, then the CPU lines, then the whole stack's CPU per operation (COST lines).
print_tables() {
  echo
  echo "| phase | ops/s | p50 ms | p99 ms | errors | measured ops | notes |"
  echo "|---|---|---|---|---|---|---|"
  for line in "${lines[@]}"; do
    [[ "$line" == RESULT\|* ]] || continue
    echo "| $(cut -d'|' -f2- <<<"$line" | sed 's/|/ | /g') |"
  done

  echo
  echo "CPU in cores (of $(nproc)) during each measured window, per process tree (a service's second replica in its column):"
  cpu_table phase "${lines[@]}"

  echo
  echo "CPU of the whole stack per operation (its processes summed; the load generator and the simulators left out):"
  echo "| phase | µs per operation |"
  echo "|---|---|"
  for line in "${lines[@]}"; do
    [[ "$line" == COST\|* ]] || continue
    IFS='|' read -r _ name micros <<<"$line"
    echo "| $name | $micros |"
  done
}

# restart_message_service true|false [CHECKOUT [JAVA]]: message-service of this stack (its recorded pid) stopped and
# started again by up.sh with offline push on or off (im.message.offline-push.enabled; up.sh's processes inherit the
# environment), from CHECKOUT's build (this one) on JAVA (the JDK 25's).
restart_message_service() {
  local pid deadline=$((SECONDS + 30))
  if pid="$(running_pid message-service)"; then
    kill -TERM "$pid"
    while running_pid message-service >/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  fi
  IM_MESSAGE_OFFLINE_PUSH_ENABLED="$1" SERVICE_CHECKOUT="${2:-$ROOT}" SERVICE_JAVA="${3:-java}" SKIP_BUILD=1 \
    deploy/local/up.sh >/dev/null
  echo "bench: message-service of ${2:-$ROOT} restarted with offline push $([[ $1 == true ]] && echo on || echo off)" >&2
}

# offline_value KIND KEY [NTH]: a value of the NTH (1st) OFFLINE|KIND|... line
offline_value() {
  local line found=0
  for line in "${lines[@]}"; do
    if [[ "$line" == "OFFLINE|$1|"* ]]; then
      found=$((found + 1))
      if ((found == ${3:-1})); then
        tr '|' '\n' <<<"$line" | awk -F= -v k="$2" '$1 == k { print $2 }'
        return
      fi
    fi
  done
  echo nan
}

# seed_other_app: OTHER_APP_DEVICES devices of another app in the push database, seeded once (SEED line).
seed_other_app() {
  local app=bench-other-app have start=$SECONDS
  have="$(psql_as push -c "select count(*) from push_devices where app_id = '$app'")"
  if ((have != OTHER_APP_DEVICES)); then
    psql_as push -c "delete from push_devices where app_id = '$app'" >/dev/null # its tokens and presence cascade
    psql_as push -v app="$app" -v n="$OTHER_APP_DEVICES" -f deploy/bench/seed-push-devices.sql >/dev/null
    psql_as push -c "analyze push_devices, push_device_tokens, push_presence" >/dev/null
  fi
  echo "SEED|$OTHER_APP_DEVICES devices of another app in the push database ($((SECONDS - start)) s)"
}

# statement_reads FILE: per statement of message-service and push-service, its calls, the blocks it read and its
# time so far (database|queryid|calls|blocks|query|ms), from pg_stat_statements; empty without it.
statement_reads() {
  local db
  for db in message push; do
    psql_as "$db" -F '|' -c "select '$db', queryid, calls, shared_blks_hit + shared_blks_read,
        left(regexp_replace(query, '\s+', ' ', 'g'), 160), round(total_exec_time::numeric, 1) from pg_stat_statements
        where userid = (select oid from pg_roles where rolname = current_user)" 2>/dev/null || true
  done >"$1"
}
# full_reads BEFORE AFTER: the statements whose calls between the two snapshots read more than FULL_READ_BLOCKS
# blocks each on average (FULL| lines), and a target line; false when one did.
full_reads() {
  if [[ ! -s "$2" ]]; then
    echo "target: no statement reads a table in full: not checked (pg_stat_statements not loaded: PG_STAT_STATEMENTS=1 up.sh)"
    return 0
  fi
  awk -F'|' -v limit="$FULL_READ_BLOCKS" '
    NR == FNR { calls[$1 "|" $2] = $3; blocks[$1 "|" $2] = $4; next }
    { k = $1 "|" $2; c = $3 - calls[k]; b = $4 - blocks[k]
      if (c > 0) { checked++; if (b / c > limit) { bad++; printf "FULL|%s|%d calls|%.0f blocks per call|%s\n", $1, c, b / c, $5 } } }
    END {
      printf "target: no statement of message-service or push-service reads more than %d blocks per call (%d statements ran) -> %s\n", limit, checked, (bad ? "MISSED" : "met")
      exit bad ? 1 : 0
    }' "$1" "$2"
}
# statement_times BEFORE AFTER: the 12 statements that took PostgreSQL's most time between the two snapshots
# (TIME|database|calls|total ms|µs per call|query).
statement_times() {
  [[ -s "$2" ]] || return 0
  awk -F'|' 'NR == FNR { calls[$1 "|" $2] = $3; ms[$1 "|" $2] = $6; next }
    { k = $1 "|" $2; c = $3 - calls[k]; t = $6 - ms[k]
      if (c > 0) printf "TIME|%s|%d calls|%.0f ms|%.0f us per call|%s\n", $1, c, t, 1000 * t / c, $5 }' "$1" "$2" |
    sort -t'|' -k4,4 -rn | awk 'NR <= 12' # awk reads to the end: head would end sort with SIGPIPE (pipefail)
}

if [[ "$PHASES" == offline-push ]]; then
  seed_other_app
  run offline-setup recipients="$OFFLINE_RECIPIENTS" force="${BENCH_FORCE_SETUP:-0}"
  if [[ "$OFFLINE_COMPARE" == 1 ]]; then
    restart_message_service false
    run offline-rate rate="$RATE" workers="$RATE_CONNECTIONS" push=0
    restart_message_service true
  fi
  statement_reads "$metrics_dir/reads.before"
  run offline-rate rate="$RATE" workers="$RATE_CONNECTIONS"
  run offline-group n="$GROUP_MESSAGES"
  statement_reads "$metrics_dir/reads.after"
  print_tables
  echo
  awk -v p99="$(offline_value push push_p99_ms)" -v notified="$(offline_value push notified)" \
    -v measured="$(offline_value push measured)" -v on="$(offline_value send-on sent_per_s)" \
    -v off="$(offline_value send-off sent_per_s)" -v onp99="$(offline_value send-on send_p99_ms)" \
    -v offp99="$(offline_value send-off send_p99_ms)" -v cmp="$OFFLINE_COMPARE" -v gmax="$(offline_value group max_ms)" -v gok="$(offline_value group complete)" \
    -v gn="$(offline_value group n)" -v rate="$RATE" 'BEGIN {
    ok = (p99 < 1000 && notified == measured)
    printf "target: offline push at %d msgs/s, p99 from the send answer to the simulator < 1 s: %.1f ms, %d of %d notified -> %s\n", rate, p99, notified, measured, (ok ? "met" : "MISSED")
    if (cmp == 1)
      printf "target: send rate within 10 %% of the run without offline push: %.1f vs %.1f msgs/s (%+.1f %%; send p99 %.1f vs %.1f ms) -> %s\n", on, off, (off > 0 ? 100 * (on - off) / off : 0), onp99, offp99, (on >= 0.9 * off ? "met" : "MISSED")
    printf "target: 500-member group, 490 offline members all notified < 2 s: %d of %d messages complete, slowest %d ms -> %s\n", gok, gn, gmax, (gok == gn && gmax >= 0 && gmax < 2000 ? "met" : "MISSED")
  }'
  statement_times "$metrics_dir/reads.before" "$metrics_dir/reads.after"
  full_reads "$metrics_dir/reads.before" "$metrics_dir/reads.after"
  exit
fi

if [[ "$PHASES" == files ]]; then
  run file-upload c="$SEND_CONCURRENCY"
  run file-complete c="$SEND_CONCURRENCY" files="$FILES"
  run file-large mb="$FILE_MB"
  print_tables
  echo
  for line in "${lines[@]}"; do
    [[ "$line" != RSS\|* ]] || echo "$line"
  done
  awk -F'|' '$1 == "RESULT" && $2 ~ /^file (upload|completion)/ {
    printf "target: %s >= 1,000/s warm: %.0f/s -> %s\n", $2, $3, ($3 >= 1000 ? "met" : "MISSED") }' <<<"$(printf '%s\n' "${lines[@]}")"
  exit
fi

if [[ "$PHASES" == sync ]]; then
  run sync c="${SYNC_CONCURRENCY:-100}" changes="${SYNC_CHANGES:-1000}"
  print_tables
  awk -F'|' '$1 == "RESULT" && $2 ~ /^sync/ {
    printf "target: syncs >= 4,000/s warm: %.0f/s -> %s\n", $3, ($3 >= 4000 ? "met" : "MISSED") }' <<<"$(printf '%s\n' "${lines[@]}")"
  exit
fi

if [[ "$PHASES" == live ]]; then
  seed_other_app
  if ! running_pid message-service-2 >/dev/null; then
    start_second_replica message-service "$SECOND_MESSAGE_PORT" IM_MESSAGE_REPLICA_ID=local-message-2 || exit 1
    second_replica_pid="$SECOND_REPLICA_PID"
    echo "bench: second message-service replica started (pid $second_replica_pid, port $SECOND_MESSAGE_PORT)" >&2
  fi
  offline_push_settle "before the live rounds"
  statement_reads "$metrics_dir/reads.before"
  for ((round = 1; round <= LIVE_ROUNDS; round++)); do
    run send-live c="$SEND_CONCURRENCY" ws_ports="${SERVICE_PORT[message-service]},$SECOND_MESSAGE_PORT" \
      grace="$LIVE_GRACE" ack="$LIVE_ACK"
  done
  statement_reads "$metrics_dir/reads.after"
  print_tables
  echo
  round=0
  for line in "${lines[@]}"; do
    [[ "$line" == LIVE\|* ]] || continue
    round=$((round + 1))
    tr '|' '\n' <<<"$line" | awk -F= -v round="$round" -v fresh="${second_replica_pid:+1}" '
      NF == 2 { v[$1] = $2 }
      END {
        ok = (v["sent_per_s"] >= 3500 && v["frame_p99_ms"] >= 0 && v["frame_p99_ms"] < 50 && v["missing_total"] == 0)
        printf "target (round %d, %s): 1:1 sends to recipients connected on %d replicas, closed loop, >= 3500 msgs/s and send-to-frame p99 < 50 ms, every frame arrived: %.1f msgs/s, p99 %.1f ms (send p99 %.1f ms), %d of %d measured frames missing (%d with the warm-up) -> %s\n", round, (round == 1 && fresh == 1 ? "cold" : "warm"), v["replicas"], v["sent_per_s"], v["frame_p99_ms"], v["send_p99_ms"], v["missing"], v["measured"], v["missing_total"], (ok ? "met" : "MISSED")
      }'
  done
  statement_times "$metrics_dir/reads.before" "$metrics_dir/reads.after"
  full_reads "$metrics_dir/reads.before" "$metrics_dir/reads.after"
  exit
fi

# delivered: events message-service's dispatcher delivered so far (its imcore_webhook_deliveries_total).
delivered() {
  curl -sS --max-time 10 "http://127.0.0.1:${SERVICE_PORT[message-service]}/q/metrics" |
    awk '/^imcore_webhook_deliveries_total\{.*outcome="delivered"/ { n += $2 } END { printf "%.0f", n }'
}

if [[ "$PHASES" == webhook ]]; then
  receiver="$WEBHOOK_RECEIVER_URL/demo"
  trap 'webhook_settings "{\"url\":\"$receiver\",\"events\":[\"*\"]}"; cleanup' EXIT
  webhook_settings "{\"url\":\"$receiver\",\"events\":[\"*\"],\"batch_size\":$WEBHOOK_BATCH}"
  run send-closed c="$SEND_CONCURRENCY"
  without="$(value_of 3 '1:1 send, closed loop' 1)"
  webhook_settings "{\"url\":\"$receiver?delay_ms=$WEBHOOK_HOOK_MS\",\"events\":[\"*\"],\"before_send\":true,\"batch_size\":$WEBHOOK_BATCH}"
  run send-closed c="$SEND_CONCURRENCY"
  with="$(value_of 3 '1:1 send, closed loop' 2)"
  # the sends queued one message.created each: the dispatcher is behind now, so this window measures its pace
  first="$(delivered)"
  start_ns="$(date +%s%N)"
  sleep "$WEBHOOK_DRAIN"
  last="$(delivered)"
  end_ns="$(date +%s%N)"
  print_tables
  echo
  awk -v w="$with" -v o="$without" -v ms="$WEBHOOK_HOOK_MS" 'BEGIN {
    printf "target: closed-loop 1:1 sends with a %d ms before-send hook >= 50 %% of those without: %.1f / %.1f = %.0f %% -> %s\n",
      ms, w, o, (o > 0 ? 100 * w / o : 0), (o > 0 && w >= 0.5 * o ? "met" : "MISSED")
  }'
  awk -v a="$first" -v b="$last" -v s="$start_ns" -v e="$end_ns" -v batch="$WEBHOOK_BATCH" 'BEGIN {
    printf "webhook events delivered by one message-service replica (one dispatcher), %d per request: %.1f per second (%d in %.1f s)\n",
      batch, (b - a) / ((e - s) / 1e9), b - a, (e - s) / 1e9
  }'
  exit 0
fi

if [[ "$PHASES" == ab ]]; then
  case "$AB_PHASE" in
    send-closed) ab_load=(send-closed c="$SEND_CONCURRENCY") ;;
    conversation) ab_load=(conversation c="$READ_CONCURRENCY") ;;
    ws-idle) ab_load=(ws-idle conns="$WS_CONNECTIONS" hold="$WS_HOLD") ;;
  esac
  echo "| build | round | run | $AB_PHASE per s | message-service cores | µs of its CPU per operation |"
  echo "|---|---|---|---|---|---|"
  for ((round = 1; round <= AB_ROUNDS; round++)); do
    for checkout in "$ROOT" ${AB_CHECKOUT:+"$AB_CHECKOUT"}; do
      if [[ "$checkout" == "$ROOT" ]]; then
        restart_message_service true "$ROOT"
      else
        restart_message_service true "$checkout" "${AB_JAVA:-java}"
      fi
      for ((n = 1; n <= AB_RUNS; n++)); do
        out="$(load "${ab_load[@]}")"
        rate="$(grep '^RESULT|' <<<"$out" | cut -d'|' -f3)"
        cores="$(grep '^CPU|' <<<"$out" | tr '|' '\n' | awk -F= '$1 == "message-service" { print $2 }')"
        echo "| $checkout | $round | $n | $rate | $cores | $(awk -v r="$rate" -v c="$cores" 'BEGIN { printf "%.0f", 1e6 * c / r }') |"
      done
    done
  done | tee "$metrics_dir/ab"
  echo
  # rows "| build | round | run | msgs/s | cores | µs |": first runs and warm runs (3rd on) averaged per build
  awk -F' [|] ' '$3 ~ /^[0-9]+$/ && $3 != 2 {
      build = substr($1, 3); kind = ($3 == 1 ? "first run after start" : "warm runs")
      key = build SUBSEP kind; n[key]++; rate[key] += $4; us[key] += $6
    }
    END { for (key in n) { split(key, k, SUBSEP)
      printf "ab: %s, %s: %.0f per s, %.0f µs of message-service CPU per operation (mean of %d)\n", k[1], k[2], rate[key] / n[key], us[key] / n[key], n[key] } }' \
    "$metrics_dir/ab" | sort
  exit 0
fi

offline_push_settle "before the first phase"
run send-closed c="$SEND_CONCURRENCY"
scrape "$metrics_dir/before-rate"
run send-rate rate="$RATE" workers="$RATE_CONNECTIONS"
scrape "$metrics_dir/after-rate"
run group c="$GROUP_CONCURRENCY" group_size="$GROUP_SIZE"
scrape "$metrics_dir/after-group"
offline_push_settle "group send"
latency_split "1:1 open loop" "$metrics_dir/before-rate" "$metrics_dir/after-rate"
latency_split "group send" "$metrics_dir/after-rate" "$metrics_dir/after-group"
run conversation c="$READ_CONCURRENCY"
run auth-read c="$SEND_CONCURRENCY"
run noop c="$SEND_CONCURRENCY"
rss_loaded="$(rss_mib message-service)"
run ws-idle conns="$WS_CONNECTIONS" hold="$WS_HOLD"

# value FIELD_INDEX NAME_PREFIX: a field of the first RESULT line whose name starts with NAME_PREFIX
value() {
  value_of "$1" "$2" 1
}

print_tables

echo
echo "Inside message-service during the open loop and the group sends (its /q/metrics before and after each phase,"
echo "warm-up included; the parts nest: the HTTP time holds the quota take and the service, the service holds the"
echo "committer's wait and transaction):"
echo "| phase | part | count | mean | above 20 ms | 99th percentile in bucket |"
echo "|---|---|---|---|---|---|"
for line in "${split_lines[@]}"; do
  echo "| $(cut -d'|' -f2- <<<"$line" | sed 's/|/ | /g') |"
done

echo
send="$(value 3 '1:1 send, closed loop')"
authread="$(value 3 'baseline: GET /user/device/list')"
rate_ops="$(value 3 '1:1 send, open loop')"
rate_p99="$(value 5 '1:1 send, open loop')"
group_p99="$(value 5 'group send')"
reads="$(value 3 'conversation page reads')"
rss_held="$(for line in "${lines[@]}"; do [[ "$line" == RSS\|*after* ]] && cut -d'|' -f4 <<<"$line"; done | awk '{print $1}')"
awk -v s="$send" -v a="$authread" -v r="$reads" 'BEGIN {
  printf "ratio: send msgs/s / authenticated read req/s = %.1f / %.1f = %.2f\n", s, a, (a > 0 ? s / a : 0)
  printf "ratio: conversation page reads/s / authenticated read req/s = %.1f / %.1f = %.2f\n", r, a, (a > 0 ? r / a : 0)
}'
echo "rss message-service: ${rss_start} MiB at the start, ${rss_loaded} MiB after the load phases;" \
  "WebSocket phase below"
for line in "${lines[@]}"; do
  [[ "$line" == RSS\|* ]] || continue
  IFS='|' read -r _ name what mib extra <<<"$line"
  echo "rss $name with $what: $mib ($extra)"
done
# targets of the issue
awk -v s="$send" -v ro="$rate_ops" -v rp="$rate_p99" -v rate="$RATE" -v gp="$group_p99" -v m="$rss_held" -v l="$rss_loaded" 'BEGIN {
  printf "target: closed-loop 1:1 sends >= 3500 msgs/s: %.1f -> %s\n", s, (s >= 3500 ? "met" : "MISSED")
  ok = (rp < 20 && ro >= 0.99 * rate)
  printf "target: %d msgs/s open loop p99 < 20 ms: p99 %.1f ms at %.1f msgs/s achieved -> %s\n", rate, rp, ro, (ok ? "met" : "MISSED")
  printf "target: group send p99 < 20 ms: %.1f ms -> %s\n", gp, (gp < 20 ? "met" : "MISSED")
  printf "target: message-service RSS after the load phases < 250 MB: %.1f MiB = %.1f MB -> %s\n", l, l * 1.048576, (l * 1.048576 < 250 ? "met" : "MISSED")
  printf "target: RSS with the WebSockets open < 400 MB: %.1f MiB = %.1f MB -> %s\n", m, m * 1.048576, (m * 1.048576 < 400 ? "met" : "MISSED")
}'
# Resident memory right after the load, per process the stack started.
for pidfile in "$PIDS"/*.pid; do
  name="$(basename "$pidfile" .pid)"
  rss_kb="$(ps -o rss= -p "$(<"$pidfile")" 2>/dev/null || true)"
  [[ -n "$rss_kb" ]] && echo "rss $name: $((rss_kb / 1024)) MiB"
done

#!/usr/bin/env bash
# Our own fault suite (docs/reliability.md): injects faults into a local stack of its own while a message load runs
# and a push is delivered, and checks every time that
#   - every answer is the envelope, and only 200 or 50003 (a dependency is down; safe to retry);
#   - no acknowledged message is lost: every send answered 200 is readable afterwards in its conversation;
#   - the push counters are exact once the task is final: per channel sent + failed + rejected = target (target
#     corrected for svcpush fallbacks: target - fallback_out + fallback_in, as docs/push-worker.md counts them);
#   - the stack recovers without restarting anything but the component that was killed (which this script
#     restarts, as an operator or Kubernetes would), and how long recovery takes.
# Cases (all by default, or name some): kill9-X and stop-X (SIGSTOP for FAULT_SECONDS, then SIGCONT) for X in
# postgres kafka auth-service message-service push-service push-worker; pg-restart (pg_ctl restart -m fast);
# worker-kill-2-replicas (kill -9 of one of two push-workers mid-broadcast); provider-slow (every simulator answers
# after PROVIDER_LATENCY_MS); provider-failing (every simulator fails PROVIDER_FAILURES requests, transiently);
# offline-push-kills (docs/offline-push.md "Exactly one per message and device": every recipient of the load is an
# offline phone with a Huawei..Meizu token, so each send is an offline push; kill -9 of push-service, restart, then
# WORKER_KILL_AFTER s later (and as soon as it holds a claim, 10 s at most) kill -9 of push-worker, restart; checks that no provider got a message twice and that
# every send answered 200 was delivered or has a final trace row, within OFFLINE_SETTLE_SECONDS).
# Each case: the message load (chaos-send of deploy/bench/load/FaultWorkload.java, RATE sends/s) and one push to
# DEVICES devices start together; FAULT_AT s later the fault starts (provider faults: with the push),
# FAULT_SECONDS later it ends (restart, SIGCONT, simulators reset); the load goes on for AFTER_SECONDS more (at
# most LOAD_MAX_SECONDS in all). Every step is bounded; a case that does not finish in time fails, and cases that
# no longer fit in RUN_SECONDS are reported as not run.
#
# Usage: deploy/chaos/run.sh [CASE...]     (build first: ./mvnw -B package -DskipTests; runs with SKIP_BUILD=1)
# Knobs (environment): DEVICES (5000), RATE (20), PAIRS (20), FAULT_AT (5), FAULT_SECONDS (10), AFTER_SECONDS (20),
#   LOAD_MAX_SECONDS (300), PUSH_TIMEOUT (300), RUN_SECONDS (3600), PROVIDER_LATENCY_MS (2000),
#   PROVIDER_FAILURES (500), WORKER_KILL_AFTER (3), OFFLINE_SETTLE_SECONDS (120), KEEP_STACK=1
#   (leave the stack running at the end; by default it is stopped, its data kept: rm -rf .local-chaos deletes it).
# Its stack runs beside the default one (deploy/local/up.sh): LOCAL_DIR .local-chaos, gateway 28080, services
# 28081.., PostgreSQL 25432, Kafka 29092/29093, object store 29100, simulators 28441..; each can be overridden the same way.
# Figures: a table on stdout, and $LOCAL_DIR/chaos/results.md and results.tsv. Not run in CI (it takes ~30 min).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LOCAL_DIR="${LOCAL_DIR:-$HERE/../../.local-chaos}"
export GATEWAY_PORT="${GATEWAY_PORT:-28080}" SERVICE_PORT_BASE="${SERVICE_PORT_BASE:-28081}"
export PG_PORT="${PG_PORT:-25432}" KAFKA_PORT="${KAFKA_PORT:-29092}"
export KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-29093}"
export OBJECT_STORE_PORT="${OBJECT_STORE_PORT:-29100}"
export SIMULATOR_PORT="${SIMULATOR_PORT:-28441}" SKIP_BUILD="${SKIP_BUILD:-1}"
source "$HERE/../local/lib.sh"
cd "$ROOT"

DEVICES="${DEVICES:-5000}"
RATE="${RATE:-20}"
PAIRS="${PAIRS:-20}"
AFTER_SECONDS="${AFTER_SECONDS:-20}"
LOAD_MAX_SECONDS="${LOAD_MAX_SECONDS:-300}"
FAULT_AT="${FAULT_AT:-5}"
FAULT_SECONDS="${FAULT_SECONDS:-10}"
PUSH_TIMEOUT="${PUSH_TIMEOUT:-300}"
RUN_SECONDS="${RUN_SECONDS:-3600}"
PROVIDER_LATENCY_MS="${PROVIDER_LATENCY_MS:-2000}"
PROVIDER_FAILURES="${PROVIDER_FAILURES:-500}"
WORKER_KILL_AFTER="${WORKER_KILL_AFTER:-3}"
OFFLINE_SETTLE_SECONDS="${OFFLINE_SETTLE_SECONDS:-120}"
READY_SECONDS=60 # how long after a case every service must be ready again
SEND_TIMEOUT=10 # seconds a send may take before it counts as a timeout (no answer)
COMPONENTS=(postgres kafka "${SERVICES[@]}")
ALL_CASES=()
for c in "${COMPONENTS[@]}"; do
  ALL_CASES+=("kill9-$c" "stop-$c")
done
ALL_CASES+=(pg-restart worker-kill-2-replicas provider-slow provider-failing offline-push-kills)
OUT="$LOCAL/chaos"
RUN_ID="$(date -u +%Y%m%dT%H%M%S)"

log() { echo "chaos: $*" >&2; }
die() { echo "chaos: ERROR: $*" >&2; exit 1; }
now_ms() { date +%s%3N; }
psql_push() {
  PGPASSWORD=push psql -h 127.0.0.1 -p "$PG_PORT" -U push -d push -v ON_ERROR_STOP=1 -Atq "$@"
}
psql_message() {
  PGPASSWORD=message psql -h 127.0.0.1 -p "$PG_PORT" -U message -d message -v ON_ERROR_STOP=1 -Atq "$@"
}
# compiled once (main): the source launcher would compile it again, seconds late, at every case
load() {
  java -XX:+UseSerialGC -Xmx128m -cp "$OUT/classes" LoadGenerator "$@"
}

cases=("$@")
((${#cases[@]} > 0)) || cases=("${ALL_CASES[@]}")
for c in "${cases[@]}"; do
  [[ " ${ALL_CASES[*]} " == *" $c "* ]] || die "unknown case $c (cases: ${ALL_CASES[*]})"
done

# ---- processes ---------------------------------------------------------------------------------------------

# pids_of NAME: the component's processes: PostgreSQL is its postmaster and every backend (a frozen server is all
# of them; stopping the postmaster alone leaves open connections working); the others are one process.
pids_of() {
  local pid
  pid="$(running_pid "$1")" || return 1
  if [[ "$1" == postgres ]]; then
    echo "$pid" $(pgrep -P "$pid" || true)
  else
    echo "$pid"
  fi
}

stopped_pids=()
second_worker=""
cleanup() {
  ((${#stopped_pids[@]} == 0)) || kill -CONT "${stopped_pids[@]}" 2>/dev/null || true
  [[ -z "$second_worker" ]] || kill -TERM "$second_worker" 2>/dev/null || true
  [[ "${KEEP_STACK:-0}" == 1 ]] || "$ROOT/deploy/local/down.sh" >&2 || true
}
trap cleanup EXIT

# The operator's restart: up.sh starts whatever is not running and leaves the rest alone. Right after a kill -9 of
# PostgreSQL its orphaned backends may still hold the shared memory for a moment: hence the retries.
restart_stack() {
  local attempt
  for attempt in 1 2 3; do
    "$ROOT/deploy/local/up.sh" >>"$OUT/up.log" 2>&1 && return 0
    log "up.sh failed (attempt $attempt, see $OUT/up.log)"
    sleep 3
  done
  return 1
}

# component_pids: "name=pid ..." of every component (and the second push-worker when running).
component_pids() {
  local name pid
  for name in "${COMPONENTS[@]}" simulators gateway push-worker-2; do
    if pid="$(running_pid "$name")"; then
      printf '%s=%s ' "$name" "$pid"
    fi
  done
}

stack_ready() {
  local s
  for s in "${SERVICES[@]}"; do
    curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:${SERVICE_PORT[$s]}/q/health/ready" || return 1
  done
}

# ---- the push ----------------------------------------------------------------------------------------------

# push_state TASK: state|effective target|sent|failed|rejected|exact (every channel sent+failed+rejected = target)
# |finished at (epoch ms, 0 while running)
push_state() {
  psql_push -c "select t.state, sum(n.target - n.fallback_out + n.fallback_in), sum(n.sent), sum(n.failed),
    sum(n.rejected), coalesce(bool_and(n.sent + n.failed + n.rejected = n.target - n.fallback_out + n.fallback_in),
    false), coalesce((extract(epoch from t.finished_at) * 1000)::bigint, 0) from push_tasks t
    left join push_task_counts n on n.task_id = t.task_id where t.task_id = $1 group by t.state, t.finished_at" \
    2>/dev/null || echo "unreadable"
}

# wait_push_final TASK DEADLINE_SECONDS: prints the final push_state, or the last one seen when time ran out.
wait_push_final() {
  local state deadline=$((SECONDS + $2))
  while :; do
    state="$(push_state "$1")"
    case "${state%%|*}" in done | expired | failed) break ;; esac
    ((SECONDS < deadline)) || break
    sleep 1
  done
  echo "$state"
}

# ---- faults ------------------------------------------------------------------------------------------------

simulators() { # simulators PATH JSON: POST to every provider simulator's control API
  local c
  for c in "${SIMULATOR_CHANNELS[@]}"; do
    curl -fsS -k --max-time 5 -X POST -H 'Content-Type: application/json' --data "$2" \
      "$(simulator_url "$c")$1" >/dev/null
  done
}

# inject CASE: starts the fault; remove CASE: ends it (restart, SIGCONT, reset). RESTART_S: seconds the restart took.
inject() {
  local target="${1#*-}" pid
  case "$1" in
    kill9-*)
      kill -KILL $(pids_of "$target") ;;
    stop-*)
      read -r -a stopped_pids <<<"$(pids_of "$target")"
      kill -STOP "${stopped_pids[@]}" ;;
    pg-restart)
      pid="$(running_pid postgres)"
      (cd / && runuser -u postgres -- "$(dirname "$(readlink "/proc/$pid/exe")")/pg_ctl" -D "$LOCAL/pgdata" \
        -l "$LOGS/postgres.log" -m fast -w -t 60 restart >>"$OUT/up.log" 2>&1) || return 1
      head -n 1 "$LOCAL/pgdata/postmaster.pid" >"$PIDS/postgres.pid" ;;
    worker-kill-2-replicas)
      kill -KILL "$(running_pid push-worker)" ;;
    provider-slow)
      simulators /_sim/latency "{\"millis\":$PROVIDER_LATENCY_MS}" ;;
    provider-failing)
      simulators /_sim/faults "{\"kind\":\"transient\",\"count\":$PROVIDER_FAILURES}" ;;
    offline-push-kills)
      kill -KILL "$(running_pid push-service)" ;;
  esac
}

remove() {
  local started=$SECONDS pid
  case "$1" in
    kill9-* | worker-kill-2-replicas) restart_stack || return 1 ;;
    stop-*)
      kill -CONT "${stopped_pids[@]}"
      stopped_pids=() ;;
    provider-*) simulators /_sim/reset '{}' ;;
    offline-push-kills)
      # push-service back (it reads message.events again from its last commit and writes the records again), then
      # push-worker killed while it sends that backlog: its claims stay `sending` until their lease lapses
      restart_stack || return 1
      sleep "$WORKER_KILL_AFTER"
      # mid-send if it can: at the first sight of a claim (`sending`), within 10 s
      local until=$((SECONDS + 10))
      while ((SECONDS < until)) && [[ "$(psql_push -c "select exists (select 1 from offline_push_trace
        where app_id = '$APP_ID' and state = 'sending')" 2>/dev/null)" != t ]]; do
        sleep 0.05
      done
      pid="$(running_pid push-worker)" || return 1
      kill -KILL "$pid"
      WORKER_KILL_MS=$(now_ms) # a provider that accepted a message before this had it from the killed worker
      # the claims the killed worker held (no other worker runs until the restart)
      WORKER_KILL_CLAIMS="$(psql_push -c "select count(*) from offline_push_trace where app_id = '$APP_ID'
        and state = 'sending'" 2>/dev/null || echo "?")"
      restart_stack || return 1 ;;
  esac
  RESTART_S=$((SECONDS - started))
}

# What the case may restart: the killed component (pg-restart restarts PostgreSQL by itself).
restarted_by_case() {
  case "$1" in
    kill9-*) echo "${1#kill9-}" ;;
    pg-restart) echo postgres ;;
    worker-kill-2-replicas) echo push-worker ;;
    offline-push-kills) echo push-service push-worker ;;
  esac
}

# push_final_after FINISHED_MS FAULT_END_MS: seconds from the fault's end until the task was final ("before" when
# it was final before the fault ended, "-" when it never was)
push_final_after() {
  if (($1 == 0)); then
    echo -
  elif (($1 < $2)); then
    echo before
  else
    echo "$(((($1 - $2) + 500) / 1000))"
  fi
}

# ---- offline push (offline-push-kills) ---------------------------------------------------------------------

# offline_push_targets: each recipient (peer) of the message load gets a phone: a token issued with a device_guid
# (device_sn 1) and a provider token bound on one of Huawei..Meizu (round robin), with the certificates
# "<channel>-prod"; no WebSocket is opened, so every send to it is an offline push. Once per run.
OFFLINE_TARGETS_DONE=0
offline_push_targets() {
  ((OFFLINE_TARGETS_DONE == 0)) || return 0
  python3 - "$OUT/message-state.properties" <<'PY' || return 1
import json, os, sys, urllib.request
base, app = os.environ["BASE_URL"], os.environ["APP_ID"]
props = {}
for line in open(sys.argv[1]):
    if "=" in line and not line.startswith("#"):
        k, v = line.rstrip("\n").split("=", 1)
        props[k] = v
def post(path, body, token=None):
    headers = {"app_id": app, "Content-Type": "application/json"}
    if token:
        headers["access-token"] = token
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        d = json.load(r)
    if d.get("code") != 200:
        sys.exit(f"POST {path} answered {d}")
    return d["data"]
channels = ["vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e"]
for i in range(int(props["pairs"])):
    peer, channel = int(props[f"peer.{i}"]), channels[i % 5]
    # the password of the load generator's users (BenchUsers.PASSWORD in deploy/bench/load)
    login = post("/token/id", {"user_id": peer, "password": "bench-pass-1", "device_guid": "chaos-phone"})
    post("/user/token/bind", {"device_sn": login["device_sn"], "device_token": f"chaos-{channel}-{peer}",
                              "notifier_name": f"{channel}-prod"}, login["token"])
PY
  OFFLINE_TARGETS_DONE=1
}

# offline_check SENDS TAG SINCE_MS WORKER_KILL_MS: waits up to OFFLINE_SETTLE_SECONDS until every message of the
# load has its trace row in a final state, then prints
# OFFLINE|stored|acknowledged|notified|deliveries|repeats|repeats in flight at the worker kill|lost|not final
# |other decisions|trace states|not kept; the repeated and lost messages (trace rows included) go to stderr.
# notified: messages some simulator accepted; repeats: messages accepted more than once over all seven simulators
# (each has one recipient device); lost: sends answered 200 whose message no simulator got and whose trace row is
# not final (sent, failed, rejected, superseded) or missing.
offline_check() {
  python3 - "$@" "$APP_ID" "$OFFLINE_SETTLE_SECONDS" $(for c in "${SIMULATOR_CHANNELS[@]}"; do simulator_url "$c"; done) <<'PY'
import json, os, ssl, subprocess, sys, time, urllib.request
from collections import Counter
sends, tag, since, kill_ms, app, settle = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], \
    int(sys.argv[6])
sims = sys.argv[7:]
FINAL = {"sent", "failed", "rejected", "superseded"}

def psql(db, sql):
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", os.environ["PG_PORT"], "-U", db, "-d", db, "-v",
                          "ON_ERROR_STOP=1", "-Atq", "-F", "\t", "-c", sql], env=dict(os.environ, PGPASSWORD=db),
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]

acked = set()
for line in open(sends):
    _t0, _t1, _pair, seq, outcome = line.split()
    if outcome == "200":
        acked.add(int(seq))
prefix = f"chaos {tag} "
msg_of = {}  # msg_id -> seq
for msg_id, content in psql("message", f"select msg_id, content from messages where left(content, {len(prefix)})"
                                       f" = '{prefix}'"):
    msg_of[int(msg_id)] = int(content[len(prefix):])
ids = "{" + ",".join(map(str, msg_of)) + "}"

def traces():
    rows = {}
    for msg_id, user, sn, decision, channel, state, reason, owner in psql("push",
            f"select msg_id, user_id, device_sn, decision, coalesce(channel, ''), state, coalesce(reason, ''),"
            f" coalesce(owner, '') from offline_push_trace where app_id = '{app}' and msg_id = any('{ids}')"):
        rows.setdefault(int(msg_id), []).append((user, sn, decision, channel, state, reason, owner))
    return rows

deadline = time.time() + settle
while True:
    rows = traces()
    pending = [m for m in msg_of if m not in rows or any(r[4] in ("queued", "sending") for r in rows[m])]
    if not pending or time.time() > deadline:
        break
    time.sleep(2)

received, not_kept = {}, 0  # msg_id -> [deliveries, first, last, channels]
insecure = ssl.create_default_context()
insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE
for url in sims:
    with urllib.request.urlopen(f"{url}/_sim/received?since={since}", timeout=30, context=insecure) as r:
        d = json.load(r)
    not_kept += d["not_kept"]
    for m in d["messages"]:
        e = received.setdefault(int(m["msg_id"]), [0, m["first"], m["last"], []])
        e[0] += m["deliveries"]
        e[1], e[2] = min(e[1], m["first"]), max(e[2], m["last"])
        e[3].append(d["channel"])

mine = {m: e for m, e in received.items() if m in msg_of}
repeats = {m: e for m, e in mine.items() if e[0] > 1}
at_kill = [m for m, e in repeats.items() if e[1] <= kill_ms < e[2]]
acked_msgs = [m for m, s in msg_of.items() if s in acked]
lost = [m for m in acked_msgs if m not in mine and not any(r[4] in FINAL for r in rows.get(m, []))]
states = Counter(r[4] for m in msg_of for r in rows.get(m, []))
other = sum(1 for m in msg_of for r in rows.get(m, []) if r[2] != "offline_push")
not_final = sum(1 for m in msg_of if m not in rows or any(r[4] not in FINAL for r in rows[m]))
for m, e in sorted(repeats.items()):
    print(f"offline-check: repeat msg {m} (seq {msg_of[m]}): {e[0]} deliveries at {e[3]}, first {e[1]}, last {e[2]}"
          f" (worker killed {kill_ms}); trace {rows.get(m)}", file=sys.stderr)
for m in lost:
    print(f"offline-check: lost msg {m} (seq {msg_of[m]}): trace {rows.get(m)}", file=sys.stderr)
received_unknown = sum(1 for m in received if m not in msg_of)
print(f"offline-check: {len(received)} messages at the simulators, {received_unknown} not of this load;"
      f" sent but not received {sum(1 for m in msg_of if m not in mine and any(r[4] == 'sent' for r in rows.get(m, [])))};"
      f" received but trace not sent {sum(1 for m in mine if not any(r[4] == 'sent' for r in rows.get(m, [])))}",
      file=sys.stderr)
print(f"OFFLINE|{len(msg_of)}|{len(acked_msgs)}|{len(mine)}|{sum(e[0] for e in mine.values())}|{len(repeats)}"
      f"|{len(at_kill)}|{len(lost)}|{not_final}|{other}|{' '.join(f'{k}:{v}' for k, v in sorted(states.items()))}"
      f"|{not_kept}")
PY
}

# ---- one case ----------------------------------------------------------------------------------------------

# analyse SENDS_LOG FAULT_START_MS FAULT_END_MS: requests during the fault|answers by outcome|bad answers
# (no envelope, or a code other than 200/50003)|timeouts|message recovery s (from the fault's end until the first
# send of the final streak of 200s; 0 if none failed after it; "never" if the load ended on a failure)
analyse() {
  python3 - "$@" <<'PY'
import sys
from collections import Counter
path, start, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = []
for line in open(path):
    t0, t1, _pair, _seq, outcome = line.split()
    rows.append((int(t0), int(t1), outcome))
rows.sort()
during = sum(1 for r in rows if start <= r[0] <= end)
by = Counter(r[2] for r in rows)
bad = sum(n for o, n in by.items() if o not in ("200", "50003", "timeout"))
failed_after = [r for r in rows if r[2] != "200" and r[1] >= end]
if not failed_after:
    recovery = "0"
elif rows[-1][2] != "200":
    recovery = "never"
else:
    last_bad = max(r[0] for r in failed_after)
    first_ok = min(r[0] for r in rows if r[0] > last_bad)
    recovery = f"{max(0, first_ok - end) / 1000:.1f}"
print(f"{during}|{' '.join(f'{o}:{n}' for o, n in sorted(by.items()))}|{bad}|{by.get('timeout', 0)}|{recovery}")
PY
}

run_case() {
  local name="$1" tag="$RUN_ID-$1" sends="$OUT/$1.sends" load_pid answer task before after fault_start fault_end \
    state_at_fault push_final verify analysis problems=() allowed c offline="-"
  log "---- $name"
  stack_ready || restart_stack || die "the stack is not ready before $name"
  if [[ "$name" == offline-push-kills ]]; then
    offline_push_targets || die "the load's recipients as offline phones"
    AUDIENCE="$(audience)" # their phones are in the push's audience now
  fi
  if [[ "$name" == worker-kill-2-replicas ]]; then
    start_second_replica push-worker "$SECOND_WORKER_PORT" || die "second push-worker"
    second_worker="$SECOND_REPLICA_PID"
  fi
  simulators /_sim/reset '{}'
  local case_start_ms
  case_start_ms=$(now_ms)
  WORKER_KILL_MS=0 WORKER_KILL_CLAIMS="?"
  before="$(component_pids)"
  rm -f "$OUT/$name.stop"
  load chaos-send tag="$tag" rate="$RATE" duration="$LOAD_MAX_SECONDS" until="$OUT/$name.stop" \
    timeout="$SEND_TIMEOUT" out="$sends" state="$OUT/message-state.properties" >"$OUT/$name.load" 2>&1 &
  load_pid=$!
  # a provider fault only matters while push-worker sends: it starts with the push, not FAULT_AT later
  if [[ "$name" == provider-* ]]; then
    fault_start=$(now_ms)
    inject "$name" || problems+=("fault not injected")
  fi
  answer="$(curl -sS --max-time 10 -X POST -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
    -H 'Content-Type: application/json' --data "{\"audience\":\"all\",\"setting\":{},\"message\":{\"type\":\"text\",
    \"title\":\"chaos\",\"body\":\"fault suite $tag\"}}" "$BASE_URL/push/notify")"
  task="$(json_get "$answer" 'd["data"]["task_id"]' 2>/dev/null)" || die "POST /push/notify answered $answer"
  sleep "$FAULT_AT"
  state_at_fault="$(push_state "$task" | awk -F'|' '{ print $1 " " $3 "/" $4 "/" $5 }')"
  if [[ "$name" != provider-* ]]; then
    fault_start=$(now_ms)
    inject "$name" || problems+=("fault not injected")
  fi
  sleep "$FAULT_SECONDS"
  remove "$name" || problems+=("not restarted")
  fault_end=$(now_ms)
  sleep "$AFTER_SECONDS"
  touch "$OUT/$name.stop"
  wait "$load_pid" || problems+=("load generator failed (see $OUT/$name.load)")
  push_final="$(wait_push_final "$task" "$PUSH_TIMEOUT")"
  verify="$(load chaos-verify tag="$tag" out="$sends" state="$OUT/message-state.properties" 2>>"$OUT/$name.load" \
    | grep '^VERIFY|')" || { verify="VERIFY|$tag|?|?|?|?"; problems+=("verification failed (see $OUT/$name.load)"); }
  if [[ "$name" == offline-push-kills ]]; then
    local o o_stored o_acked o_notified o_deliveries o_repeats o_at_kill o_lost o_not_final o_other o_states o_not_kept
    if o="$(offline_check "$sends" "$tag" "$case_start_ms" "$WORKER_KILL_MS" 2>>"$OUT/$name.load" | grep '^OFFLINE|')"
    then
      IFS='|' read -r _ o_stored o_acked o_notified o_deliveries o_repeats o_at_kill o_lost o_not_final o_other \
        o_states o_not_kept <<<"$o"
      offline="messages $o_stored (200: $o_acked), notified $o_notified ($o_deliveries deliveries), repeats $o_repeats"
      offline+=" ($o_at_kill in flight at the worker kill, which held $WORKER_KILL_CLAIMS claims), lost $o_lost,"
      offline+=" not final $o_not_final; trace $o_states"
      # strict: the documented exception (a worker killed between the provider's answer and its finish) counts too;
      # how many of the repeats it explains is reported beside them
      ((o_repeats == 0)) ||
        problems+=("$o_repeats messages notified twice or more ($o_at_kill first accepted before the worker kill, resent after it; see $OUT/$name.load)")
      ((o_lost == 0)) || problems+=("$o_lost offline pushes lost (see $OUT/$name.load)")
      ((o_not_final == 0)) || problems+=("$o_not_final trace rows not final after $OFFLINE_SETTLE_SECONDS s")
      ((o_other == 0)) || problems+=("$o_other trace rows not decided offline_push")
      ((o_not_kept == 0)) || problems+=("the simulators did not keep $o_not_kept messages")
      ((o_stored > 0 && o_notified > 0)) || problems+=("no offline push at all")
    else
      offline="?"
      problems+=("offline push check failed (see $OUT/$name.load)")
    fi
  fi
  after="$(component_pids)"
  [[ "$name" != worker-kill-2-replicas ]] || { kill -TERM "$second_worker" 2>/dev/null || true; second_worker=""; }

  analysis="$(analyse "$sends" "$fault_start" "$fault_end")"
  IFS='|' read -r during answers bad timeouts recovery <<<"$analysis"
  IFS='|' read -r _ _ acked lost stored_unacked duplicates <<<"$verify"
  IFS='|' read -r p_state p_target p_sent p_failed p_rejected p_exact p_finished_ms <<<"$push_final"
  ((bad == 0)) || problems+=("$bad answers not envelope/200/50003")
  [[ "$lost" == 0 ]] || problems+=("lost $lost")
  [[ "$p_state" == done && "$p_exact" == t && "$p_target" == "$AUDIENCE" ]] ||
    problems+=("push $p_state, exact $p_exact, target $p_target of $AUDIENCE")
  [[ "$recovery" != never ]] || problems+=("no recovery within the load")
  allowed="$(restarted_by_case "$name")"
  for c in $before; do
    [[ " $allowed " == *" ${c%%=*} "* || " $after " == *" $c "* ]] || problems+=("${c%%=*} restarted or gone")
  done
  # readiness may lag (a pool still validating dead connections): waited for, up to READY_SECONDS, and reported
  local waited=0 result=PASS
  while ! stack_ready; do
    ((waited < READY_SECONDS)) || { problems+=("not ready $READY_SECONDS s after the case"); break; }
    sleep 1
    waited=$((waited + 1))
  done
  ((waited == 0)) || result="PASS (a service was ready again only ~$waited s after the checks)"
  ((${#problems[@]} == 0)) || result="FAIL: $(IFS=';'; echo "${problems[*]}")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" \
    "$(((fault_end - fault_start) / 1000))" \
    "$(wc -l <"$sends")" "$during" "$answers" "$timeouts" "$acked" "$lost" "$stored_unacked/$duplicates" \
    "${RESTART_S:-0}" "$recovery" "$state_at_fault" \
    "$p_state $p_sent/$p_failed/$p_rejected of $p_target" "$(push_final_after "$p_finished_ms" "$fault_end")" \
    "$offline" "$result" \
    >>"$OUT/results.tsv"
  log "$name: $result"
}

# ---- main --------------------------------------------------------------------------------------------------

mkdir -p "$OUT"
: >"$OUT/up.log"
rm -rf "$OUT/classes"
javac -d "$OUT/classes" deploy/bench/load/*.java || die "cannot compile deploy/bench/load"
log "starting the stack in $LOCAL (gateway $GATEWAY_PORT, services $SERVICE_PORT_BASE..," \
  "PostgreSQL $PG_PORT, Kafka $KAFKA_PORT)"
restart_stack || die "the stack did not start (see $OUT/up.log)"
source "$LOCAL/env" # BASE_URL, PLATFORM_KEY

# One app for the run: push on, certificates at the simulators, DEVICES seeded devices, PAIRS pairs of users.
created="$(curl -sS --max-time 10 -X POST -H "platform-key: $PLATFORM_KEY" -H 'Content-Type: application/json' \
  -d "{\"name\":\"chaos-$RUN_ID\"}" "$BASE_URL/app/create")"
APP_ID="$(json_get "$created" 'd["data"]["app_id"]')" || die "POST /app/create answered $created"
ADMIN_TOKEN="$(json_get "$created" 'd["data"]["admin_token"]')"
export BASE_URL APP_ID ADMIN_TOKEN
deadline=$((SECONDS + 30)) # push-service learns the app from auth.events
until [[ "$(json_get "$(curl -sS --max-time 10 -X POST -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
  "$BASE_URL/push/enable?value=true")" 'd["code"]' 2>/dev/null)" == 200 ]]; do
  ((SECONDS < deadline)) || die "POST /push/enable never answered 200"
  sleep 0.5
done
upload_simulator_certificates "$APP_ID" "$ADMIN_TOKEN" "%s-prod" || die "certificates"
psql_push -v app="$APP_ID" -v n="$DEVICES" -f deploy/bench/seed-push-devices.sql
# the push's audience: every device with a provider token or online (the seed leaves 10 % with neither)
audience() {
  psql_push -c "select count(*) from push_devices d where d.app_id = '$APP_ID' and (exists (select 1
    from push_device_tokens k where k.device_id = d.device_id) or exists (select 1 from push_presence p
    where p.app_id = d.app_id and p.user_id = d.user_id and p.device_sn = d.device_sn and p.online))"
}
AUDIENCE="$(audience)"
load setup pairs="$PAIRS" group_size=2 seed=1 state="$OUT/message-state.properties" >>"$OUT/setup.log" 2>&1 ||
  die "message load setup failed (see $OUT/setup.log)"
log "app $APP_ID: $DEVICES devices (audience $AUDIENCE), $PAIRS pairs of users"

machine="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g |
  awk '/Mem:/{print $2}') GiB, load average $(cut -d' ' -f1-3 /proc/loadavg)"
columns=(case "fault s" sends "sends during fault" "answers by outcome" timeouts acknowledged lost
  "stored unacknowledged/duplicates" "restart s" "message recovery s" "push at fault (state sent/failed/rejected)"
  "push final (sent/failed/rejected of target)" "push final s after fault end" "offline push" result)
(IFS=$'\t'; echo "${columns[*]}") >"$OUT/results.tsv"
for c in "${cases[@]}"; do
  # what a case takes at most besides a restart (up.sh: 90 s per service) and the verification
  if ((SECONDS + FAULT_AT + FAULT_SECONDS + AFTER_SECONDS + PUSH_TIMEOUT + 180 > RUN_SECONDS)); then
    printf '%s\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tnot run (RUN_SECONDS)\n' "$c" >>"$OUT/results.tsv"
    continue
  fi
  run_case "$c"
done

{
  echo "Fault suite, $(date -u +%Y-%m-%dT%H:%MZ), $machine"
  echo "deploy/chaos/run.sh: DEVICES=$DEVICES RATE=$RATE/s PAIRS=$PAIRS FAULT_AT=$FAULT_AT" \
    "FAULT_SECONDS=$FAULT_SECONDS AFTER_SECONDS=$AFTER_SECONDS PUSH_TIMEOUT=$PUSH_TIMEOUT; audience $AUDIENCE;" \
    "total $SECONDS s"
  echo
  head -n 1 "$OUT/results.tsv" | sed 's/^/| /; s/\t/ | /g; s/$/ |/'
  head -n 1 "$OUT/results.tsv" | sed 's/[^\t]*/---/g; s/^/| /; s/\t/ | /g; s/$/ |/'
  tail -n +2 "$OUT/results.tsv" | sed 's/^/| /; s/\t/ | /g; s/$/ |/'
} >"$OUT/results.md"
cat "$OUT/results.md"
cp "$OUT/results.md" "$OUT/results-$RUN_ID.md"
! grep -q $'\tFAIL' "$OUT/results.tsv"

#!/usr/bin/env bash
# Trains the four services' JDK 25 AOT caches on a representative run of the local stack (docs/operations.md
# "AOT cache"): JEP 483's classes loaded and linked ahead of time and JEP 515's method profiles, written with JEP
# 514's one-step -XX:AOTCacheOutput. Afterwards deploy/local/up.sh starts each service with its cache (AOT_CACHE=use,
# the default) for as long as the build it was trained on is unchanged; a rebuild deletes the caches.
#   1. stops the four services (a second push-worker too) if they run, and starts them again with
#      AOT_CACHE=train deploy/local/up.sh (the rest of the stack, started if needed, is left as it is);
#   2. the training load, through the gateway as clients do:
#      - a push to every channel: deploy/bench/push.sh with AOT_TRAIN_DEVICES (20,000) seeded devices (accepts, one
#        expansion, delivery through the APNs, FCM, Huawei..Meizu and svcpush channels to the simulators);
#      - messages with the load generator (deploy/bench/load) as the demo app's users, AOT_TRAIN_SECONDS (10) per
#        phase: 1:1 sends (closed loop and at a rate), group sends, conversation reads, auth-service reads,
#        WebSocket connects (AOT_TRAIN_WEBSOCKETS, 200), and 1:1 sends to offline users with a phone each (offline
#        push through message-service to the vendor simulators);
#   3. stops the four services with SIGTERM: each JVM then starts a second JVM that assembles its cache (some 20 s
#      on 2 cores), and exits when the cache is written; AOT_STOP_SECONDS (300) at most;
#   4. keeps each cache that was written for a build that did not change meanwhile (<service>.aot.build holds the
#      build's fingerprint, deploy/local/aot.sh); a service without a cache is reported and the script fails.
# The services stay stopped: start them with SKIP_BUILD=1 deploy/local/up.sh (a build would delete the caches).
# Takes the stack's variables (LOCAL_DIR, ports, SKIP_BUILD, SERVICE_CHECKOUT) as up.sh does; the first run takes
# 6-8 min (it registers the training's users, kept in .local/bench/aot-train for the next runs), later ones ~3 min.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/lib.sh"
source "$HERE/aot.sh"
cd "$ROOT"

AOT_TRAIN_DEVICES="${AOT_TRAIN_DEVICES:-20000}"
AOT_TRAIN_SECONDS="${AOT_TRAIN_SECONDS:-10}"
AOT_TRAIN_WEBSOCKETS="${AOT_TRAIN_WEBSOCKETS:-200}"
AOT_STOP_SECONDS="${AOT_STOP_SECONDS:-300}"
SERVICE_CHECKOUT="${SERVICE_CHECKOUT:-$ROOT}"
TRAIN_DIR="$LOCAL/bench/aot-train"

log() { echo "aot-train: $*" >&2; }
die() { echo "aot-train: ERROR: $*" >&2; exit 1; }

# stop_services SECONDS: SIGTERM to each running service, then waits up to SECONDS for all of them to exit (a
# training JVM exits only once its cache is assembled). One still running then is killed with its process group
# (up.sh starts each service in a session of its own: the assembling JVM is in it).
stop_services() {
  local s pid deadline names=()
  for s in "${SERVICES[@]}" push-worker-2; do
    pid="$(running_pid "$s")" || continue
    kill -TERM "$pid" 2>/dev/null || true
    names+=("$s")
  done
  ((${#names[@]} > 0)) || return 0
  log "stopping ${names[*]} (SIGTERM; up to $1 s)"
  deadline=$((SECONDS + $1))
  for s in "${names[@]}"; do
    while pid="$(running_pid "$s")" && ((SECONDS < deadline)); do
      sleep 1
    done
    if pid="$(running_pid "$s")"; then
      log "$s: still running after $1 s, killed (no cache)"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PIDS/$s.pid"
  done
}

# load PHASE key=value...: one phase of the load generator, as the demo app; its output goes to the training log
load() {
  java -XX:+UseSerialGC -Xmx256m -cp "$TRAIN_DIR/load-classes" LoadGenerator "$@" local_dir="$LOCAL" \
    state="$TRAIN_DIR/message-state.properties" offline_state="$TRAIN_DIR/offline-state.properties" \
    simulator_port="$SIMULATOR_PORT" pairs=20 register_batch=5 duration="$AOT_TRAIN_SECONDS" warmup=1
}

# A training that fails half way leaves no cache behind: the services are stopped (the caches they assemble on the
# way out are deleted) and start again without caches.
finished=0
on_exit() {
  local s cache
  ((finished == 0)) || return 0
  log "training failed: stopping the services and deleting their partial caches"
  stop_services "$AOT_STOP_SECONDS"
  for s in "${SERVICES[@]}"; do
    cache="$(aot_cache_file "$SERVICE_CHECKOUT" "$s")"
    [[ ! -f "$cache.training" ]] || rm -f "$cache" "$cache.training" "$cache.config"
  done
}

started=$SECONDS
mkdir -p "$TRAIN_DIR"
for s in "${SERVICES[@]}"; do
  [[ -f "$SERVICE_CHECKOUT/$s/target/quarkus-app/quarkus-run.jar" || "${SKIP_BUILD:-0}" != 1 ]] \
    || die "$SERVICE_CHECKOUT/$s/target/quarkus-app/quarkus-run.jar missing: build first"
done

# ---- 1. the services in training mode ----------------------------------------------------------------------
stop_services 60
trap on_exit EXIT
log "starting the stack, the services in training mode (AOT_CACHE=train deploy/local/up.sh)"
AOT_CACHE=train SERVICE_CHECKOUT="$SERVICE_CHECKOUT" "$HERE/up.sh" >"$TRAIN_DIR/up.log" 2>&1 \
  || { tail -n 30 "$TRAIN_DIR/up.log" >&2; die "up.sh failed (log: $TRAIN_DIR/up.log)"; }
for s in "${SERVICES[@]}"; do
  [[ -f "$(aot_cache_file "$SERVICE_CHECKOUT" "$s").training" ]] \
    || die "$s was already running, not in training mode: stop it first (deploy/local/down.sh)"
done

# ---- 2. the training load ----------------------------------------------------------------------------------
log "push to every channel: deploy/bench/push.sh, $AOT_TRAIN_DEVICES devices (log: $TRAIN_DIR/push.log)"
BENCH_SKIP_UP=1 DEVICES="$AOT_TRAIN_DEVICES" WORKERS=1 PAUSE_WORKER=0 ACCEPT_N=100 DELIVERY_TIMEOUT=300 \
  "$ROOT/deploy/bench/push.sh" >"$TRAIN_DIR/push.log" 2>&1 \
  || { tail -n 20 "$TRAIN_DIR/push.log" >&2; die "push.sh failed (log: $TRAIN_DIR/push.log)"; }
grep -E '^delivery: task' "$TRAIN_DIR/push.log" >&2 || true

log "messages: load generator phases, $AOT_TRAIN_SECONDS s each (log: $TRAIN_DIR/messages.log)"
# shellcheck source=/dev/null
source "$LOCAL/env" # the demo app's BASE_URL, APP_ID, ADMIN_TOKEN, PLATFORM_KEY
export BASE_URL APP_ID ADMIN_TOKEN
for quota in message-send message-send-per-user message-notify; do # the training measures nothing: the demo app's quotas are lifted
  curl -sS --max-time 10 -X PUT -H "platform-key: $PLATFORM_KEY" -H "app_id: $APP_ID" \
    -H 'Content-Type: application/json' \
    -d "{\"quota\":\"$quota\",\"limit\":1000000,\"period_seconds\":1,\"burst\":1000000}" \
    "$BASE_URL/message/quota" | grep -q '"code":200' || die "cannot lift the $quota quota of the demo app"
done
rm -rf "$TRAIN_DIR/load-classes"
javac -d "$TRAIN_DIR/load-classes" deploy/bench/load/*.java
: >"$TRAIN_DIR/messages.log"
phase() {
  load "$@" >>"$TRAIN_DIR/messages.log" 2>&1 \
    || { tail -n 20 "$TRAIN_DIR/messages.log" >&2; die "load phase $1 failed (log: $TRAIN_DIR/messages.log)"; }
}
phase setup group_size=50
phase send-closed c=20
phase send-rate rate=200 workers=20
phase group c=5
phase conversation c=16
phase auth-read c=20
phase ws-idle conns="$AOT_TRAIN_WEBSOCKETS" c=20 hold=5
phase offline-setup recipients=500
phase offline-rate rate=100 workers=10 drain=60 trace_sample=20
grep '^RESULT|' "$TRAIN_DIR/messages.log" | cut -d'|' -f2-6 | sed 's/^/  /' >&2 || true

# ---- 3. stop: the caches are assembled ---------------------------------------------------------------------
stop_services "$AOT_STOP_SECONDS"

# ---- 4. keep the caches of unchanged builds ----------------------------------------------------------------
failed=()
for s in "${SERVICES[@]}"; do
  cache="$(aot_cache_file "$SERVICE_CHECKOUT" "$s")"
  if [[ ! -s "$cache" ]]; then
    log "$s: no cache written (see $LOGS/$s.log)"
    failed+=("$s")
  elif [[ "$(aot_build_fingerprint "$(dirname "$cache")")" != "$(cat "$cache.training" 2>/dev/null)" ]]; then
    log "$s: the build changed during the training: cache deleted"
    rm -f "$cache"
    failed+=("$s")
  else
    mv "$cache.training" "$cache.build"
    log "$s: $cache, $(($(stat -c %s "$cache") / 1048576)) MiB"
  fi
  rm -f "$cache.training" "$cache.config"
done
finished=1
((${#failed[@]} == 0)) || die "no cache for ${failed[*]}"
log "done in $((SECONDS - started)) s; the services are stopped: SKIP_BUILD=1 deploy/local/up.sh starts them with" \
  "their caches"

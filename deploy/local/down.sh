#!/usr/bin/env bash
# Stops exactly the processes deploy/local/up.sh started, found by their recorded PIDs (a PID whose command line
# is no longer the expected one is left alone). Data, keys and the demo app in .local/ are kept for the next up.
# Usage: down.sh [--purge]   --purge also deletes .local/ (databases, Kafka data, keys, demo app, logs).
# A stack started with LOCAL_DIR (and other ports) is stopped with the same LOCAL_DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

STOP_SECONDS=20

log() { echo "down: $*"; }

purge=0
case "${1:-}" in
  "") ;;
  --purge) purge=1 ;;
  *) echo "usage: $0 [--purge]" >&2; exit 2 ;;
esac

# SIGTERM (PostgreSQL: pg_ctl's fast shutdown), up to STOP_SECONDS for a clean exit, then SIGKILL.
stop() {
  local name="$1" pid
  if pid="$(running_pid "$name")"; then
    log "$name: stopping (pid $pid)"
    if [[ "$name" == postgres ]]; then
      # pg_ctl's fast shutdown as the server's own user; it waits until the server is gone.
      local pg_ctl
      pg_ctl="$(dirname "$(tr '\0' '\n' <"/proc/$pid/cmdline" | head -n 1)")/pg_ctl"
      if ((EUID == 0)); then
        (cd / && runuser -u postgres -- "$pg_ctl" -D "$LOCAL/pgdata" -m fast -w -t "$STOP_SECONDS" stop >/dev/null) || true
      else
        "$pg_ctl" -D "$LOCAL/pgdata" -m fast -w -t "$STOP_SECONDS" stop >/dev/null || true
      fi
    fi
  fi
  stop_running "$name" "$STOP_SECONDS"
}

# Front to back: monitoring, the gateway, the services (together), then what they depend on.
for s in prometheus pg-exporter nginx-exporter; do
  stop "$s"
done
stop gateway
# push-worker-2: the second replica deploy/bench/push.sh or deploy/chaos/run.sh may have started;
# message-service-2: the one deploy/bench/message.sh PHASES=live starts
for s in "${SERVICES[@]}" push-worker-2 message-service-2 console; do
  stop "$s" &
done
wait
stop simulators
stop object-store
stop kafka
stop embedded-pg
stop postgres

if ((purge)); then
  log "deleting $LOCAL"
  rm -rf "$LOCAL"
fi
log "done"

# shellcheck shell=bash disable=SC2034
# Shared by up.sh, down.sh and smoke.sh (sourced, not run): paths, ports and the pid-file bookkeeping.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOCAL="$ROOT/.local"
PIDS="$LOCAL/pids"
LOGS="$LOCAL/logs"

PG_PORT="${PG_PORT:-15432}"
KAFKA_PORT="${KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
GATEWAY_PORT="${GATEWAY_PORT:-8080}"
# the seven push provider simulators (push-simulators) listen on SIMULATOR_PORT .. SIMULATOR_PORT+6, in the order
# ios, cloud, vendor_a, vendor_b, vendor_c, vendor_d, vendor_e
SIMULATOR_PORT="${SIMULATOR_PORT:-18441}"
SIMULATOR_CHANNELS=(ios cloud vendor_a vendor_b vendor_c vendor_d vendor_e)
BASE_URL="http://127.0.0.1:$GATEWAY_PORT"

SERVICES=(auth-service message-service push-service push-worker)
declare -A SERVICE_PORT=([auth-service]=8081 [message-service]=8082 [push-service]=8083 [push-worker]=8084)
declare -A SERVICE_DB=([auth-service]=auth [message-service]=message [push-service]=push [push-worker]=push)
DATABASES=(auth message push)

# What /proc/PID/cmdline of component NAME contains: a recycled PID or a foreign process never matches.
marker() {
  case "$1" in
    postgres) echo "-D $LOCAL/pgdata" ;;
    embedded-pg) echo "$LOCAL/embedded-pg/target/embedded-pg.jar" ;;
    kafka) echo "$LOCAL/kafka/server.properties" ;;
    gateway) echo "$LOCAL/nginx/nginx.conf" ;;
    simulators) echo "$ROOT/push-simulators/target/push-simulators.jar" ;;
    *) echo "$ROOT/$1/target/quarkus-app/quarkus-run.jar" ;;
  esac
}

# Prints the PID of component NAME when its recorded process is alive and still ours; fails otherwise.
running_pid() {
  local file="$PIDS/$1.pid" pid
  [[ -f "$file" ]] || return 1
  pid="$(<"$file")"
  [[ "$pid" =~ ^[0-9]+$ && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$(marker "$1")" || return 1
  echo "$pid"
}

# True when something accepts TCP connections on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# simulator_url CHANNEL: the base URL of a channel's provider simulator.
simulator_url() {
  local i
  for i in "${!SIMULATOR_CHANNELS[@]}"; do
    if [[ "${SIMULATOR_CHANNELS[$i]}" == "$1" ]]; then
      if [[ "$1" == ios ]]; then
        echo "https://127.0.0.1:$((SIMULATOR_PORT + i))"
      else
        echo "http://127.0.0.1:$((SIMULATOR_PORT + i))"
      fi
    fi
  done
}

# json_get JSON EXPR: evaluates the Python expression EXPR on the parsed JSON `d` and prints the result.
json_get() {
  python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); print(eval(sys.argv[1]))' "$2" <<<"$1"
}

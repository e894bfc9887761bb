# shellcheck shell=bash disable=SC2034
# Shared by up.sh, down.sh and smoke.sh (sourced, not run): paths, ports and the pid-file bookkeeping.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# Every java of the stack and the benchmarks is the JDK 25 the build uses (deploy/jdk-home.sh)
JAVA_HOME="$("$ROOT/deploy/jdk-home.sh")" || exit 1
PATH="$JAVA_HOME/bin:$PATH"
export JAVA_HOME PATH
# The stack's state (pids, logs, data, keys, env). LOCAL_DIR and the ports below let a second stack run beside the
# first one (deploy/chaos/run.sh does): give it its own LOCAL_DIR and ports and every script follows.
LOCAL="$(realpath -m "${LOCAL_DIR:-$ROOT/.local}")"
PIDS="$LOCAL/pids"
LOGS="$LOCAL/logs"

PG_PORT="${PG_PORT:-15432}"
KAFKA_PORT="${KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
GATEWAY_PORT="${GATEWAY_PORT:-8080}"
# the object store of file messages (s3proxy, docs/files.md): its S3 endpoint and bucket
OBJECT_STORE_PORT="${OBJECT_STORE_PORT:-19100}"
OBJECT_STORE_BUCKET=imcore-files
# the seven push provider simulators (push-simulators) listen on SIMULATOR_PORT .. SIMULATOR_PORT+6, in the order
# APNs, FCM, Huawei, Xiaomi, OPPO, vivo, Meizu
SIMULATOR_PORT="${SIMULATOR_PORT:-18441}"
SIMULATOR_CHANNELS=(ios cloud vendor_a vendor_b vendor_c vendor_d vendor_e)
# the demo app's webhook receiver (push-simulators' WebhookReceiver) listens right after them
WEBHOOK_RECEIVER_PORT=$((SIMULATOR_PORT + ${#SIMULATOR_CHANNELS[@]}))
WEBHOOK_RECEIVER_URL="http://127.0.0.1:$WEBHOOK_RECEIVER_PORT"
BASE_URL="http://127.0.0.1:$GATEWAY_PORT"

SERVICES=(auth-service message-service push-service push-worker)
# the services listen on SERVICE_PORT_BASE .. SERVICE_PORT_BASE+3 in the order above; a second push-worker replica
# (deploy/bench/push.sh WORKERS=2, deploy/chaos/run.sh) on SERVICE_PORT_BASE+4, a second message-service replica
# (deploy/bench/message.sh PHASES=live) on SERVICE_PORT_BASE+6 (+5 is the console's)
SERVICE_PORT_BASE="${SERVICE_PORT_BASE:-8081}"
declare -A SERVICE_PORT=([auth-service]=$SERVICE_PORT_BASE [message-service]=$((SERVICE_PORT_BASE + 1))
  [push-service]=$((SERVICE_PORT_BASE + 2)) [push-worker]=$((SERVICE_PORT_BASE + 3)))
SECOND_WORKER_PORT=$((SERVICE_PORT_BASE + 4))
SECOND_MESSAGE_PORT=$((SERVICE_PORT_BASE + 6))
# the administration console (docs/console.md), served through the gateway at /console
CONSOLE_PORT="${CONSOLE_PORT:-$((SERVICE_PORT_BASE + 5))}"
# monitoring (docs/operations.md "Monitoring"): Prometheus, the PostgreSQL and nginx exporters and nginx's
# stub_status listener on MONITORING_PORT_BASE .. +3 (the gateway's port + 10, so a second stack moves them too)
MONITORING_PORT_BASE="${MONITORING_PORT_BASE:-$((GATEWAY_PORT + 10))}"
PROMETHEUS_PORT=$MONITORING_PORT_BASE
PG_EXPORTER_PORT=$((MONITORING_PORT_BASE + 1))
NGINX_EXPORTER_PORT=$((MONITORING_PORT_BASE + 2))
NGINX_STATUS_PORT=$((MONITORING_PORT_BASE + 3))
PROMETHEUS_URL="http://127.0.0.1:$PROMETHEUS_PORT"
declare -A SERVICE_DB=([auth-service]=auth [message-service]=message [push-service]=push [push-worker]=push)
DATABASES=(auth message push)

# Connection budget (docs/operations.md "Connection budget"): the local stack runs every service's database on one
# PostgreSQL, so its max_connections is every pool at its maximum, times the replicas that may run (the push
# benchmark starts a second push-worker with WORKERS=2, message.sh PHASES=live a second message-service), plus a
# reserve for superuser slots (3), psql and the benchmarks' own connections. up.sh starts PostgreSQL with it and
# refuses a server that allows fewer.
declare -A POOL_SIZE=([auth-service]=32 [message-service]=32 [push-service]=32 [push-worker]=32)
declare -A MAX_REPLICAS=([auth-service]=1 [message-service]=2 [push-service]=1 [push-worker]=2)
PG_RESERVED_CONNECTIONS=13
pg_connection_budget() {
  local s total=$PG_RESERVED_CONNECTIONS
  for s in "${SERVICES[@]}"; do
    total=$((total + POOL_SIZE[$s] * MAX_REPLICAS[$s]))
  done
  echo "$total"
}

# What /proc/PID/cmdline of component NAME contains: a recycled PID or a foreign process never matches.
marker() {
  case "$1" in
    postgres) echo "-D $LOCAL/pgdata" ;;
    embedded-pg) echo "$LOCAL/embedded-pg/target/embedded-pg.jar" ;;
    kafka) echo "$LOCAL/kafka/server.properties" ;;
    object-store) echo "$LOCAL/object-store/s3proxy.conf" ;;
    gateway) echo "$LOCAL/nginx/nginx.conf" ;;
    simulators) echo "$ROOT/push-simulators/target/push-simulators.jar" ;;
    push-worker-2) echo "$ROOT/push-worker/target/quarkus-app/quarkus-run.jar" ;;
    # any checkout's build, as message-service's own (the second replica copies the first one's command line)
    message-service-2) echo "/message-service/target/quarkus-app/quarkus-run.jar" ;;
    prometheus) echo "--config.file=$LOCAL/prometheus/prometheus.yml" ;;
    pg-exporter) echo "--web.listen-address=127.0.0.1:$PG_EXPORTER_PORT" ;;
    nginx-exporter) echo "-web.listen-address=127.0.0.1:$NGINX_EXPORTER_PORT" ;;
    # any checkout's build: up.sh's SERVICE_CHECKOUT starts another checkout's service on this stack
    *) echo "/$1/target/quarkus-app/quarkus-run.jar" ;;
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

# stop_running NAME SECONDS: SIGTERM to component NAME (its recorded pid), up to SECONDS for a clean exit, then
# SIGKILL; its pid file goes. Nothing else happens when it is not running.
stop_running() {
  local pid deadline
  if pid="$(running_pid "$1")"; then
    kill -TERM "$pid" 2>/dev/null || true
    deadline=$((SECONDS + $2))
    while running_pid "$1" >/dev/null && ((SECONDS < deadline)); do
      sleep 0.2
    done
    if running_pid "$1" >/dev/null; then
      echo "$1: still running after $2 s, killing" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$PIDS/$1.pid"
}

# start_second_replica SERVICE PORT [NAME=VALUE ...]: a second replica of SERVICE on PORT, with the running
# replica's own command line and environment (as a second pod of the same Deployment), NAME=VALUE replacing what it
# has (message-service: its own IM_MESSAGE_REPLICA_ID). Its PID goes to SECOND_REPLICA_PID and to
# pids/SERVICE-2.pid (down.sh stops it), its log to logs/SERVICE-2.log. The gateway keeps its one upstream, the
# first replica: clients reach the second one on its port. A second replica already running is reused. Waits until
# it is ready, 90 s at most. Ports: push-worker's SECOND_WORKER_PORT, message-service's SECOND_MESSAGE_PORT.
start_second_replica() {
  local service="$1" port="$2" pid deadline assignment command environment
  shift 2
  if SECOND_REPLICA_PID="$(running_pid "$service-2")"; then
    return 0
  fi
  pid="$(running_pid "$service")" || { echo "start_second_replica: $service is not running" >&2; return 1; }
  if port_open "$port"; then
    echo "start_second_replica: port $port is taken" >&2
    return 1
  fi
  local replaced=(-e '^QUARKUS_HTTP_PORT=')
  for assignment in "$@"; do
    replaced+=(-e "^${assignment%%=*}=")
  done
  mapfile -d '' -t command <"/proc/$pid/cmdline"
  mapfile -d '' -t environment < <(tr '\0' '\n' <"/proc/$pid/environ" | grep -v "${replaced[@]}" | tr '\n' '\0')
  setsid env -i "${environment[@]}" QUARKUS_HTTP_PORT="$port" "$@" "${command[@]}" \
    >"$LOGS/$service-2.log" 2>&1 </dev/null &
  SECOND_REPLICA_PID=$!
  echo "$SECOND_REPLICA_PID" >"$PIDS/$service-2.pid"
  deadline=$((SECONDS + 90))
  until curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$port/q/health/ready"; do
    if ! kill -0 "$SECOND_REPLICA_PID" 2>/dev/null || ((SECONDS >= deadline)); then
      echo "start_second_replica: the second $service did not start (see $LOGS/$service-2.log)" >&2
      return 1
    fi
    sleep 0.5
  done
}

# True when something accepts TCP connections on 127.0.0.1:PORT.
# server_psql: the stack's PostgreSQL server's own psql, not Debian's wrapper script (a Perl interpreter per call),
# or the one on PATH when the server has none beside it (PG_MODE=embedded)
server_psql() {
  local psql
  if [[ -f "$PIDS/postgres.pid" ]]; then
    psql="$(dirname "$(tr '\0' '\n' <"/proc/$(<"$PIDS/postgres.pid")/cmdline" | head -n 1)")/psql"
    [[ -x "$psql" ]] && { echo "$psql"; return; }
  fi
  echo psql
}
# psql_as DB ARGS...: psql as the database's own role (auth, message, push) on the stack's PostgreSQL
psql_as() {
  local db="$1"
  shift
  PGPASSWORD="$db" PGSSLMODE=disable "$(server_psql)" -h 127.0.0.1 -p "$PG_PORT" -U "$db" -d "$db" \
    -v ON_ERROR_STOP=1 -Atq "$@"
}

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

# upload_simulator_certificates APP_ID ADMIN_TOKEN NAME_FORMAT: gives the app a certificate per provider (production
# environment) that the provider simulators accept, named printf NAME_FORMAT CHANNEL (e.g. demo-%s). Keys are
# generated once into .local/keys. A certificate the app already has for a provider is kept. No message_defaults:
# the adapters' built-in IM categories apply (docs/push-certificates.md).
upload_simulator_certificates() {
  local app="$1" admin="$2" format="$3" keys="$LOCAL/keys" provider response body
  mkdir -p "$keys"
  if [[ ! -f "$keys/demo-apns.p8" ]]; then
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$keys/demo-apns.p8.tmp" 2>/dev/null
    mv "$keys/demo-apns.p8.tmp" "$keys/demo-apns.p8"
  fi
  if [[ ! -f "$keys/demo-fcm.pem" ]]; then
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$keys/demo-fcm.pem.tmp" 2>/dev/null
    mv "$keys/demo-fcm.pem.tmp" "$keys/demo-fcm.pem"
  fi
  for provider in 1 7 2 3 6 5 4; do
    response="$(curl -sS --max-time 10 -H "app_id: $app" -H "access-token: $admin" \
      "$BASE_URL/push/certificate?provider=$provider&environment=1")"
    [[ "$(json_get "$response" 'd["data"] is None' 2>/dev/null)" == True ]] || continue
    body="$(python3 - "$provider" "$keys" "$(simulator_url cloud)/token" "$format" <<'PY'
import json, sys
provider, keys, token_uri, name_format = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
channel = {1: "ios", 7: "cloud", 2: "vendor_a", 3: "vendor_b", 6: "vendor_c", 5: "vendor_d", 4: "vendor_e"}[provider]
cert = {"provider": provider, "environment": 1, "name": name_format % channel, "app_id": "", "app_key": "",
        "app_secret": "demo-" + channel + "-secret", "certificate": ""}
if channel == "ios":
    cert.update(app_id="DEMOTEAM01.com.example.demo", app_key="DEMOKEY001", app_secret="",
                certificate=open(keys + "/demo-apns.p8").read())
elif channel == "cloud":
    cert.update(app_secret="", certificate=json.dumps({
        "type": "service_account", "project_id": "demo-project", "private_key_id": "demo",
        "private_key": open(keys + "/demo-fcm.pem").read(), "client_email": "push@demo-project.iam.gserviceaccount.com",
        "client_id": "1", "token_uri": token_uri}))
elif channel in ("vendor_a", "vendor_d", "vendor_e"):
    cert.update(app_id="100200300")
    if channel == "vendor_d":
        # vivo asks for receipts only with the receipt id registered in its console (docs/channels/vivo.md)
        cert.update(app_key="demo-vivo-app-key", message_defaults={"receipt_id": "demo-vivo-receipt"})
elif channel == "vendor_b":
    cert.update(app_id="com.example.demo")
elif channel == "vendor_c":
    cert.update(app_key="demo-oppo-app-key")
print(json.dumps(cert))
PY
)"
    response="$(curl -sS --max-time 10 -X POST -H "app_id: $app" -H "access-token: $admin" \
      -H 'Content-Type: application/json' --data "$body" "$BASE_URL/push/certificate")"
    if [[ "$(json_get "$response" 'd["code"]' 2>/dev/null)" != 200 ]]; then
      echo "POST /push/certificate (provider $provider) answered: $response" >&2
      return 1
    fi
  done
}

# json_get JSON EXPR: evaluates the Python expression EXPR on the parsed JSON `d` and prints the result.
json_get() {
  python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); print(eval(sys.argv[1]))' "$2" <<<"$1"
}

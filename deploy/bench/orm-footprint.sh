#!/usr/bin/env bash
# Footprint of auth-service, message-service and push-service for comparing builds (issue 14: Hibernate ORM with
# Panache): for each checkout given, starts its packaged services on fresh databases of one throw-away PostgreSQL
# (system binaries), then deploy/bench/orm-footprint.py measures RSS after start, after 1,000 reads each, and the
# mean time of a device list read, a groups-joined read, a token operation, a group create, a push switch and a tag add over 2,000 calls each, and each
# service's start time (launch until /q/health/live answers; the three start one after the other).
# No Kafka broker: the outbox relay and the auth view retry in the background, alike for every build, and
# message-service and push-service learn users and apps from auth-service's /internal/identity; push-service's
# expansion is off (it has no broker to expand onto). bcrypt cost 4, so the token
# operation's time is the service's and the database's, not the hash's.
# Usage: deploy/bench/orm-footprint.sh CHECKOUT...   (each with auth-service, message-service, push-service packaged)
# Knobs: PG_PORT (25432), PORT_BASE (28081: auth, +1 message, +2 push), LOOP (2000), READS (1000),
#   JAVA (the java launcher; default: the JDK 25 of deploy/jdk-home.sh), JVM_OPTIONS (extra options after each service's own
#   <service>/src/main/jvm/jvm.options of THIS checkout, so every build compared runs with the same limits),
#   JVM_OPTIONS_AUTH_SERVICE, JVM_OPTIONS_MESSAGE_SERVICE, JVM_OPTIONS_PUSH_SERVICE (extra options of one service,
#   e.g. -XX:AOTCacheOutput=... to train an AOT cache on this load, then -XX:AOTCache=... to use it)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PG_PORT="${PG_PORT:-25432}"
PORT_BASE="${PORT_BASE:-28081}"
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
WORK="$(mktemp -d /tmp/orm-footprint.XXXXXX)"
chmod 755 "$WORK"
PLATFORM_KEY="footprint-platform-key"
INTERNAL_KEY="footprint-internal-key"
JAVA="${JAVA:-$("$ROOT/deploy/jdk-home.sh")/bin/java}"
read -r -a EXTRA_JVM_OPTIONS <<<"${JVM_OPTIONS:-}"
SERVICE_PIDS=()

as_pg() { if ((EUID == 0)); then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
psql_admin() { as_pg "$PG_BIN/psql" -h /tmp -p "$PG_PORT" -U postgres -Atqc "$1" postgres; }
stop_services() { for pid in "${SERVICE_PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done; SERVICE_PIDS=(); }
cleanup() {
  stop_services || true
  as_pg "$PG_BIN/pg_ctl" -D "$WORK/pgdata" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir "$WORK/pgdata"
((EUID != 0)) || chown postgres:postgres "$WORK/pgdata"
as_pg "$PG_BIN/initdb" -D "$WORK/pgdata" -U postgres -E UTF8 --locale=C --auth-local=peer --auth-host=scram-sha-256 >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$WORK/pgdata" -l "$WORK/pgdata/log" -w -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT \
  -c unix_socket_directories=/tmp -c max_connections=100" start >/dev/null
psql_admin "CREATE ROLE auth LOGIN PASSWORD 'auth'" >/dev/null
psql_admin "CREATE ROLE message LOGIN PASSWORD 'message'" >/dev/null
psql_admin "CREATE ROLE push LOGIN PASSWORD 'push'" >/dev/null
"$ROOT/deploy/jwt/jwt-keys.sh" new "$WORK/jwt.pem" >/dev/null
"$ROOT/deploy/jwt/jwt-keys.sh" jwks "$WORK/jwt.pem" >"$WORK/jwks.json"

# start NAME PORT DATABASE CHECKOUT ENV...: the packaged service in the background; its pid into SERVICE_PIDS
start() {
  local name="$1" port="$2" db="$3" checkout="$4"
  shift 4
  local own_options_name="JVM_OPTIONS_${name//-/_}"
  own_options_name="${own_options_name^^}"
  local own_options
  read -r -a own_options <<<"${!own_options_name:-}"
  local launched_at
  launched_at="$(date +%s%N)"
  env QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT="$port" \
    QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/$db" \
    QUARKUS_DATASOURCE_USERNAME="${name%-service}" QUARKUS_DATASOURCE_PASSWORD="${name%-service}" \
    KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9 MP_JWT_VERIFY_PUBLICKEY_LOCATION="$WORK/jwks.json" \
    IM_PLATFORM_KEY="$PLATFORM_KEY" IM_INTERNAL_KEY="$INTERNAL_KEY" QUARKUS_LOG_CONSOLE_LEVEL=WARN "$@" \
    "$JAVA" "@$ROOT/$name/src/main/jvm/jvm.options" "${EXTRA_JVM_OPTIONS[@]}" "${own_options[@]}" \
    -jar "$checkout/$name/target/quarkus-app/quarkus-run.jar" >"$WORK/$name-$db.log" 2>&1 &
  SERVICE_PIDS+=("$!")
  local deadline=$((SECONDS + 180))
  until curl -fsS "http://127.0.0.1:$port/q/health/live" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || { tail -n 30 "$WORK/$name-$db.log" >&2; echo "$name did not start" >&2; exit 1; }
    sleep 0.1
  done
  echo "start $name: $(( ($(date +%s%N) - launched_at) / 1000000 )) ms until /q/health/live answers"
}

run=0
for checkout in "$@"; do
  run=$((run + 1))
  checkout="$(cd "$checkout" && pwd)"
  psql_admin "CREATE DATABASE auth$run OWNER auth" >/dev/null
  psql_admin "CREATE DATABASE message$run OWNER message" >/dev/null
  psql_admin "CREATE DATABASE push$run OWNER push" >/dev/null
  echo "== $checkout ($(git -C "$checkout" log -1 --format=%h)), $("$JAVA" -version 2>&1 | head -n 1), ${JVM_OPTIONS:-}"
  start auth-service "$PORT_BASE" "auth$run" "$checkout" IM_JWT_PRIVATE_KEY_LOCATION="$WORK/jwt.pem" IM_AUTH_BCRYPT_COST=4
  start message-service "$((PORT_BASE + 1))" "message$run" "$checkout" IM_AUTH_SERVICE_URL="http://127.0.0.1:$PORT_BASE" \
    IM_WEBHOOKS_SECRET_KEY="$(head -c 32 /dev/urandom | base64)"
  start push-service "$((PORT_BASE + 2))" "push$run" "$checkout" IM_AUTH_SERVICE_URL="http://127.0.0.1:$PORT_BASE" \
    IM_PUSH_CERTIFICATE_KEY="$(head -c 32 /dev/urandom | base64)" IM_PUSH_FANOUT_ENABLED=false
  sleep 5 # let start-up work (Flyway, first scheduler runs) settle before the first RSS reading
  AUTH_URL="http://127.0.0.1:$PORT_BASE" MESSAGE_URL="http://127.0.0.1:$((PORT_BASE + 1))" PLATFORM_KEY="$PLATFORM_KEY" \
    PUSH_URL="http://127.0.0.1:$((PORT_BASE + 2))" AUTH_PID="${SERVICE_PIDS[0]}" MESSAGE_PID="${SERVICE_PIDS[1]}" \
    PUSH_PID="${SERVICE_PIDS[2]}" python3 "$ROOT/deploy/bench/orm-footprint.py"
  stop_services
done

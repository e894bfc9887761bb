#!/usr/bin/env bash
# Starts the whole stack on this machine, without Docker: PostgreSQL, Kafka, the four services and an nginx
# gateway at one base URL, then creates (once) a demo app and writes its credentials to .local/env.
# State lives in .local/ at the repo root (pids, logs, data, keys), or in LOCAL_DIR. Safe to re-run: a component
# whose recorded process is alive is left alone. Stop with deploy/local/down.sh.
#
# Environment:
#   SKIP_BUILD=1            do not run the Maven build (the jars must exist)
#   PG_PORT, KAFKA_PORT, KAFKA_CONTROLLER_PORT, GATEWAY_PORT   (15432, 19092, 19093, 8080)
#   OBJECT_STORE_PORT       the object store of file messages, s3proxy (19100)
#   SERVICE_PORT_BASE       auth-service, message-service, push-service, push-worker on BASE .. BASE+3 (8081)
#                           (second replicas of the benchmarks, lib.sh: push-worker on BASE+4, message-service on BASE+6)
#   CONSOLE_PORT            the administration console (BASE+5), served through the gateway at /console
#   SIMULATOR_PORT          the seven provider simulators on SIMULATOR_PORT .. +6 (18441), the demo webhook receiver on +7
#   MONITORING_PORT_BASE    Prometheus, the PostgreSQL and nginx exporters, nginx's stub_status on BASE .. BASE+3
#                           (GATEWAY_PORT+10)
#   MONITORING=0            start no Prometheus and no exporters (a benchmark's A/B against a build without them)
#   LOCAL_DIR               the state directory (.local at the repo root). With other ports and another LOCAL_DIR
#                           a second stack runs beside the first (down.sh and smoke.sh take the same variables)
#   PG_MODE=auto|system|embedded   system = the installed PostgreSQL server binaries, embedded = PostgreSQL from
#                           Maven jars (deploy/local/embedded-pg); auto takes system when it can (default)
#   EXTERNAL_PG_URL_BASE    e.g. jdbc:postgresql://db:5432 : use that server, start none. Databases auth, message
#                           and push must exist there, each owned by a role of the same name and password.
#   EXTERNAL_KAFKA          bootstrap servers of an existing Kafka: start none (it must auto-create topics).
#   REGISTRATION_BURST      self-registrations at once per app and client address (100: every local client is
#                           127.0.0.1, and smoke.sh registers a dozen users per run; production default 10)
#   SERVICE_JAVA            the java that runs the four services (java on the PATH); Kafka, PostgreSQL and the
#                           provider simulators keep the PATH's java
#   SERVICE_CHECKOUT        the checkout whose service builds (jar and jvm.options) up.sh starts (this one); an A/B
#                           benchmark starts another build's message-service on this stack (message.sh PHASES=ab)
#   PG_STAT_STATEMENTS=1    system PostgreSQL only: load pg_stat_statements at start and create it in each
#                           database (per-statement times for the benchmarks, docs/benchmarks.md); takes effect
#                           when up.sh starts the server, not on one already running
#   AOT_CACHE=use|off|train the services' JDK 25 AOT caches (docs/operations.md "AOT cache"). use (default): a
#                           service starts with -XX:AOTCache when deploy/local/aot-train.sh left a cache for exactly
#                           the build being started (a stale one is ignored, never fatal); off: none; train: each
#                           service writes one when it stops (aot-train.sh sets it). Applies to the services up.sh
#                           starts, not to those already running.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/aot.sh"
cd "$ROOT"

MVN=("$ROOT/mvnw" -q -B)
KEYS="$LOCAL/keys"
SERVICE_WAIT_SECONDS=90
REGISTRATION_BURST="${REGISTRATION_BURST:-100}"
SERVICE_JAVA="${SERVICE_JAVA:-java}"
SERVICE_CHECKOUT="${SERVICE_CHECKOUT:-$ROOT}"
AOT_CACHE="${AOT_CACHE:-use}"
[[ "$AOT_CACHE" =~ ^(use|off|train)$ ]] || { echo "up: ERROR: AOT_CACHE must be use, off or train" >&2; exit 2; }
# a training JVM, and the second JVM it starts at its exit to write the cache (it inherits the options), need more
# than the services' 128 MiB metaspace limit: each writes what it learnt through a buffer the size of the compressed
# class space ("Unable to allocate from 'ro' region" with 128 MiB)
AOT_TRAINING_OPTIONS="${AOT_TRAINING_OPTIONS:--XX:MaxMetaspaceSize=256m}"

log() { echo "up: $*"; }
die() { echo "up: ERROR: $*" >&2; exit 1; }

# Prints the end of a component's log and fails.
die_with_log() {
  echo "---- last lines of $LOGS/$1.log ----" >&2
  tail -n 40 "$LOGS/$1.log" >&2 || true
  die "$1: $2"
}

# launch NAME COMMAND...: runs COMMAND in the background in its own session (so that it outlives this script
# and the terminal), output to .local/logs/NAME.log, PID to .local/pids/NAME.pid.
launch() {
  local name="$1"
  shift
  setsid "$@" >"$LOGS/$name.log" 2>&1 </dev/null &
  echo "$!" >"$PIDS/$name.pid"
}

# launched_alive NAME: whether the process launch started for NAME is still there. Right after launch it may not
# have exec'd its command yet (on a loaded machine, for a moment), when running_pid does not recognise it.
launched_alive() {
  local pid
  pid="$(cat "$PIDS/$1.pid" 2>/dev/null)" && [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null
}

# wait_for NAME SECONDS CHECK...: polls CHECK until it succeeds; fails early when NAME's process is gone.
wait_for() {
  local name="$1" seconds="$2"
  local deadline=$((SECONDS + seconds))
  shift 2
  until "$@"; do
    launched_alive "$name" || die_with_log "$name" "process exited during startup"
    ((SECONDS < deadline)) || die_with_log "$name" "not ready after $seconds s"
    sleep 0.5
  done
}

# Whether a server could bind 127.0.0.1:PORT now (with SO_REUSEADDR, as servers do).
port_bindable() {
  python3 -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}

# require_free_port NAME PORT [VARIABLE]: fails when another server listens on PORT (VARIABLE is the setting
# that moves NAME elsewhere). The PostgreSQL and Kafka ports lie in Linux's ephemeral range (32768-60999), where
# an outgoing connection, or its TIME_WAIT, can hold a port for up to a minute: that is waited out.
require_free_port() {
  local hint="${3:+ (set $3 for another)}" deadline=$((SECONDS + 75))
  ! port_open "$2" || die "$1: port $2 is already taken by a process up.sh did not start$hint"
  port_bindable "$2" && return
  log "$1: port $2 is held by a client connection; waiting until it is released"
  until port_bindable "$2"; do
    ((SECONDS < deadline)) || die "$1: port $2 still held by a client connection after 75 s$hint"
    sleep 1
  done
}

log_contains() { grep -qF -- "$2" "$LOGS/$1.log"; }

# ---- tools -------------------------------------------------------------------------------------------------

# Installs the Debian packages of missing commands. policy-rc.d keeps the nginx package from starting its own
# system service: only our nginx process is wanted.
ensure_tools() {
  PATH="$PATH:/usr/sbin"
  local tool missing=() policy=/usr/sbin/policy-rc.d added="" rc=0
  for tool in curl openssl python3 nginx; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  ((${#missing[@]} > 0)) || return 0
  ((EUID == 0)) || die "missing commands: ${missing[*]} (install Debian's packages of those names)"
  log "installing ${missing[*]} (apt-get)"
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    added=1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } || rc=$?
  [[ -z "$added" ]] || rm -f "$policy"
  ((rc == 0)) || die "apt-get install ${missing[*]} failed"
  if [[ -d /run/systemd/system && " ${missing[*]} " == *" nginx "* ]]; then
    systemctl disable --now nginx >/dev/null 2>&1 || true
  fi
}

# ---- build -------------------------------------------------------------------------------------------------

# Rebuilding rewrites target/quarkus-app under a running service, so only the stopped services are built.
build_services() {
  local stopped=() s
  for s in "${SERVICES[@]}"; do
    running_pid "$s" >/dev/null || stopped+=("$s")
  done
  if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    for s in "${stopped[@]}"; do
      [[ ! -s "$(aot_cache_file "$ROOT" "$s")" ]] \
        || log "$s: the build empties target/quarkus-app, its AOT cache goes with it (SKIP_BUILD=1 keeps it)"
    done
  fi
  if [[ "${SKIP_BUILD:-0}" == 1 || ${#stopped[@]} -eq 0 ]]; then
    log "build skipped"
  elif [[ ${#stopped[@]} -eq ${#SERVICES[@]} ]]; then
    log "building (./mvnw -q -B package -DskipTests)"
    "${MVN[@]}" package -DskipTests
  else
    log "building the stopped services: ${stopped[*]}"
    "${MVN[@]}" package -DskipTests -am -pl "$(IFS=,; echo "${stopped[*]}")"
  fi
  for s in "${SERVICES[@]}"; do
    [[ -f "$s/target/quarkus-app/quarkus-run.jar" ]] || die "$s/target/quarkus-app/quarkus-run.jar missing: build first"
  done
  if ! running_pid simulators >/dev/null && [[ "${SKIP_BUILD:-0}" != 1 && ! -f push-simulators/target/push-simulators.jar ]]; then
    "${MVN[@]}" package -DskipTests -pl push-simulators
  fi
}

# ---- keys --------------------------------------------------------------------------------------------------

# Each file is written under a temporary name and renamed, so an interrupted run never leaves half a key.
ensure_keys() {
  mkdir -p "$KEYS"
  chmod 700 "$KEYS"
  # token keys: auth-service's signing key and the key set every service verifies with (deploy/jwt/jwt-keys.sh);
  # to rotate them locally, follow docs/operations.md with these two files: the services re-read them
  if [[ ! -f "$KEYS/jwt-private.pem" ]]; then
    log "generating the token signing key"
    "$ROOT/deploy/jwt/jwt-keys.sh" new "$KEYS/jwt-private.pem" >/dev/null
    rm -f "$KEYS/jwt-jwks.json"
  fi
  if [[ ! -f "$KEYS/jwt-jwks.json" ]]; then
    "$ROOT/deploy/jwt/jwt-keys.sh" jwks "$KEYS/jwt-private.pem" >"$KEYS/jwt-jwks.json.tmp"
    mv "$KEYS/jwt-jwks.json.tmp" "$KEYS/jwt-jwks.json"
  fi
  if [[ ! -f "$KEYS/platform-key" ]]; then
    openssl rand -hex 32 >"$KEYS/platform-key.tmp"
    mv "$KEYS/platform-key.tmp" "$KEYS/platform-key"
  fi
  PLATFORM_KEY="$(<"$KEYS/platform-key")"
  # the services' key for each other's /internal/* endpoints, apart from the operator's platform key
  if [[ ! -f "$KEYS/internal-key" ]]; then
    openssl rand -hex 32 >"$KEYS/internal-key.tmp"
    mv "$KEYS/internal-key.tmp" "$KEYS/internal-key"
  fi
  INTERNAL_KEY="$(<"$KEYS/internal-key")"
  # encrypt push certificates at rest (docs/push-certificates.md): push-certificate-key is key version 1; a key
  # rotation ("Key rotation" there) adds push-certificate-keys (2:<base64>,...) and push-certificate-key-current (a
  # version), and may retire key 1 by deleting push-certificate-key (a new one is only made when neither file exists)
  if [[ ! -f "$KEYS/push-certificate-key" && ! -f "$KEYS/push-certificate-keys" ]]; then
    openssl rand -base64 32 >"$KEYS/push-certificate-key.tmp"
    mv "$KEYS/push-certificate-key.tmp" "$KEYS/push-certificate-key"
  fi
  # seals the apps' webhook signing secrets at rest (docs/webhooks.md "Signatures")
  if [[ ! -f "$KEYS/webhooks-secret-key" ]]; then
    openssl rand -base64 32 >"$KEYS/webhooks-secret-key.tmp"
    mv "$KEYS/webhooks-secret-key.tmp" "$KEYS/webhooks-secret-key"
  fi
  WEBHOOKS_SECRET_KEY="$(<"$KEYS/webhooks-secret-key")"
  PUSH_CERTIFICATE_KEY="$(cat "$KEYS/push-certificate-key" 2>/dev/null || true)"
  PUSH_CERTIFICATE_KEYS="$(cat "$KEYS/push-certificate-keys" 2>/dev/null || true)"
  PUSH_CERTIFICATE_KEY_CURRENT="$(cat "$KEYS/push-certificate-key-current" 2>/dev/null || true)"
}

# ---- PostgreSQL --------------------------------------------------------------------------------------------

# The newest installed server binaries, if any.
pg_bin_dir() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && echo "$dir"
}

# initdb refuses to run as root: as root, the server runs as the postgres user.
as_pg() {
  if ((EUID == 0)); then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# The system binaries need a data dir the server's user can reach (not so for a clone under /root).
system_pg_usable() {
  [[ -n "$(pg_bin_dir)" ]] || return 1
  ((EUID != 0)) || { id postgres >/dev/null 2>&1 && as_pg test -x "$LOCAL"; }
}

start_postgres() {
  if [[ -n "${EXTERNAL_PG_URL_BASE:-}" ]]; then
    log "PostgreSQL: external, $EXTERNAL_PG_URL_BASE"
    JDBC_BASE="$EXTERNAL_PG_URL_BASE"
    return
  fi
  JDBC_BASE="jdbc:postgresql://127.0.0.1:$PG_PORT"
  case "${PG_MODE:-auto}" in
    system) system_pg_usable || die "PG_MODE=system: no usable PostgreSQL server binaries in /usr/lib/postgresql"
      start_system_postgres ;;
    embedded) start_embedded_postgres ;;
    auto) if system_pg_usable; then start_system_postgres; else start_embedded_postgres; fi ;;
    *) die "PG_MODE must be auto, system or embedded" ;;
  esac
}

start_system_postgres() {
  local bin data="$LOCAL/pgdata" db statement_stats=""
  bin="$(pg_bin_dir)"
  if [[ "${PG_STAT_STATEMENTS:-0}" == 1 ]]; then
    statement_stats=" -c shared_preload_libraries=pg_stat_statements"
  fi
  if running_pid postgres >/dev/null && port_open "$PG_PORT"; then
    log "PostgreSQL: already running"
  else
    require_free_port PostgreSQL "$PG_PORT" PG_PORT
    if [[ ! -f "$data/PG_VERSION" ]]; then
      log "PostgreSQL: initdb ($bin)"
      mkdir -p "$data"
      ((EUID != 0)) || chown postgres:postgres "$data"
      chmod 700 "$data"
      # Superuser only through the socket as OS user postgres; everyone else by password over loopback.
      as_pg "$bin/initdb" -D "$data" -U postgres -E UTF8 --locale=C \
        --auth-local=peer --auth-host=scram-sha-256 >"$LOGS/postgres-initdb.log"
    fi
    : >"$LOGS/postgres.log"
    ((EUID != 0)) || chown postgres "$LOGS/postgres.log"
    log "PostgreSQL: starting on 127.0.0.1:$PG_PORT"
    as_pg "$bin/pg_ctl" -D "$data" -l "$LOGS/postgres.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=/tmp -c max_connections=$(pg_connection_budget) -c autovacuum_naptime=10s$statement_stats" start >/dev/null \
      || die_with_log postgres "pg_ctl start failed"
    head -n 1 "$data/postmaster.pid" >"$PIDS/postgres.pid"
  fi
  for db in "${DATABASES[@]}"; do
    psql_admin "$bin" "SELECT 1 FROM pg_roles WHERE rolname = '$db'" | grep -q 1 \
      || psql_admin "$bin" "CREATE ROLE $db LOGIN PASSWORD '$db'" >/dev/null
    psql_admin "$bin" "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 \
      || psql_admin "$bin" "CREATE DATABASE $db OWNER $db" >/dev/null
    if [[ -n "$statement_stats" ]]; then
      as_pg "$bin/psql" -h /tmp -p "$PG_PORT" -U postgres -d "$db" -v ON_ERROR_STOP=1 -Atq \
        -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
    fi
  done
}

# The server must allow every pool at its maximum (lib.sh pg_connection_budget): a server started before the budget
# grew (or an external one) would refuse connections under load with "remaining connection slots are reserved".
check_connection_budget() {
  local host_port allowed needed
  needed="$(pg_connection_budget)"
  host_port="$(sed -E 's|^jdbc:postgresql://([^/]+).*|\1|' <<<"$JDBC_BASE")"
  command -v psql >/dev/null || { log "PostgreSQL: psql not installed, max_connections not checked (needs $needed)"; return; }
  allowed="$(PGPASSWORD=auth PGCONNECT_TIMEOUT=5 psql -h "${host_port%:*}" -p "${host_port##*:}" -U auth -d auth -Atqc \
    'show max_connections')" || die "PostgreSQL: cannot read max_connections as role auth"
  ((allowed >= needed)) || die "PostgreSQL allows $allowed connections, the services' pools need $needed (lib.sh); \
restart it (deploy/local/down.sh, then up.sh) or raise its max_connections"
  log "PostgreSQL: max_connections $allowed, budget $needed"
}

psql_admin() {
  as_pg "$1/psql" -h /tmp -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -Atq -c "$2"
}

# No server binaries installed: the same PostgreSQL 15 from Maven jars; it creates the databases itself.
start_embedded_postgres() {
  local jar="$LOCAL/embedded-pg/target/embedded-pg.jar" project="deploy/local/embedded-pg"
  if running_pid embedded-pg >/dev/null && port_open "$PG_PORT"; then
    log "PostgreSQL (embedded): already running"
    return
  fi
  require_free_port PostgreSQL "$PG_PORT" PG_PORT
  if [[ ! -f "$jar" || -n "$(find "$project" -newer "$jar" -type f | head -n 1)" ]]; then
    log "PostgreSQL (embedded): building $project"
    "${MVN[@]}" -f "$project/pom.xml" -Dlocal.dir="$LOCAL/embedded-pg" package
  fi
  log "PostgreSQL (embedded): starting on 127.0.0.1:$PG_PORT"
  launch embedded-pg java -Xmx64m -Dmax_connections="$(pg_connection_budget)" -jar "$jar" "$PG_PORT" \
    "$LOCAL/pgdata-embedded" "${DATABASES[@]}"
  wait_for embedded-pg 120 log_contains embedded-pg "embedded-pg ready"
}

# ---- object store ------------------------------------------------------------------------------------------

# s3proxy (an S3 server) with its filesystem backend, from the jar the build fetched for test-support (its path is in
# test-support's imcore-object-store.properties): files of messages live in .local/object-store/data, one directory
# per bucket. Its credentials are made once into .local/keys and given to message-service only.
start_object_store() {
  local dir="$LOCAL/object-store" properties="$ROOT/test-support/target/classes/imcore-object-store.properties" jar
  OBJECT_STORE_ACCESS_KEY=imcore-local
  if [[ ! -f "$KEYS/object-store-secret" ]]; then
    openssl rand -hex 32 >"$KEYS/object-store-secret.tmp"
    mv "$KEYS/object-store-secret.tmp" "$KEYS/object-store-secret"
  fi
  OBJECT_STORE_SECRET="$(<"$KEYS/object-store-secret")"
  if running_pid object-store >/dev/null && port_open "$OBJECT_STORE_PORT"; then
    log "object store: already running"
    return
  fi
  require_free_port "object store" "$OBJECT_STORE_PORT" OBJECT_STORE_PORT
  [[ -f "$properties" ]] || die "$properties missing: build first (without SKIP_BUILD=1)"
  jar="$(sed -n 's/^s3proxy\.jar=//p' "$properties")"
  [[ -f "$jar" ]] || die "s3proxy jar $jar missing: build first (./mvnw -pl test-support package)"
  mkdir -p "$dir/data/$OBJECT_STORE_BUCKET"
  chmod 700 "$dir"
  # ignore-unknown-headers: upload URLs sign x-amz-checksum-sha256 (AWS S3 checks it; s3proxy does not know it,
  # message-service checks the hash itself); uploads up to the largest default limit (video, 200 MiB) in one PUT
  cat >"$dir/s3proxy.conf" <<CONF
s3proxy.endpoint=http://127.0.0.1:$OBJECT_STORE_PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$OBJECT_STORE_ACCESS_KEY
s3proxy.credential=$OBJECT_STORE_SECRET
s3proxy.ignore-unknown-headers=true
s3proxy.v4-max-non-chunked-request-size=268435456
jclouds.provider=filesystem
jclouds.filesystem.basedir=$dir/data
CONF
  chmod 600 "$dir/s3proxy.conf"
  log "object store: starting s3proxy on 127.0.0.1:$OBJECT_STORE_PORT"
  launch object-store java -Xmx128m -jar "$jar" --properties "$dir/s3proxy.conf"
  wait_for object-store 60 port_open "$OBJECT_STORE_PORT"
}

# ---- Kafka -------------------------------------------------------------------------------------------------

start_kafka() {
  local dir="$LOCAL/kafka" pom="deploy/local/kafka/pom.xml"
  if [[ -n "${EXTERNAL_KAFKA:-}" ]]; then
    log "Kafka: external, $EXTERNAL_KAFKA"
    KAFKA_BOOTSTRAP="$EXTERNAL_KAFKA"
    return
  fi
  KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT"
  if running_pid kafka >/dev/null && port_open "$KAFKA_PORT"; then
    log "Kafka: already running"
    return
  fi
  require_free_port Kafka "$KAFKA_PORT" KAFKA_PORT
  require_free_port "Kafka controller" "$KAFKA_CONTROLLER_PORT" KAFKA_CONTROLLER_PORT
  # The jars are copied again when the pom changed, without leftovers of other versions.
  if [[ ! "$dir/libs/.complete" -nt "$pom" ]]; then
    log "Kafka: fetching the broker jars ($pom)"
    rm -rf "$dir/libs"
    "${MVN[@]}" -f "$pom" -Dkafka.libs="$dir/libs" dependency:copy-dependencies
    touch "$dir/libs/.complete"
  fi
  mkdir -p "$dir/data"
  cat >"$dir/server.properties" <<EOF
# Generated by deploy/local/up.sh: single node, broker and KRaft controller in one process.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
num.partitions=6
auto.create.topics.enable=true
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
EOF
  local java=(java -cp "$dir/libs/*" -Dlog4j2.configurationFile="$ROOT/deploy/local/kafka/log4j2.properties")
  if [[ ! -f "$dir/data/meta.properties" ]]; then
    # A cluster id is a random UUID in URL-safe base64, never starting with "-" (a command-line option to the
    # tools), as `StorageTool random-uuid` makes it; that one prints it amid its logging.
    local cluster_id
    cluster_id="$(python3 -c 'import base64, uuid
while (id := base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")).startswith("-"):
    pass
print(id)')"
    log "Kafka: formatting storage"
    "${java[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" \
      >"$LOGS/kafka-format.log" 2>&1 || die_with_log kafka-format "format failed"
  fi
  log "Kafka: starting on 127.0.0.1:$KAFKA_PORT"
  launch kafka "${java[@]}" -Xms384m -Xmx384m kafka.Kafka "$dir/server.properties"
  wait_for kafka 90 log_contains kafka "Kafka Server started"
  # auth.events is compacted as in production (docs/events.md): the other services' views can always be rebuilt
  "${java[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --if-not-exists \
    --topic auth.events --partitions 6 --config cleanup.policy=compact >"$LOGS/kafka-topics.log" 2>&1 \
    || die_with_log kafka-topics "cannot create topic auth.events"
  # presence.events: one key per device, compacted too: the latest record is the device's current presence
  "${java[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --if-not-exists \
    --topic presence.events --partitions 6 --config cleanup.policy=compact >>"$LOGS/kafka-topics.log" 2>&1 \
    || die_with_log kafka-topics "cannot create topic presence.events"
  # one topic per push channel (docs/push-fanout.md), and the expansion checkpoints: compacted (the latest per
  # task is what a resume needs) and deleted after 7 days (finished tasks are never resumed)
  local channel
  for channel in ios cloud vendor_a vendor_b vendor_c vendor_d vendor_e svcpush; do
    "${java[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --if-not-exists \
      --topic "push.$channel" --partitions 6 >>"$LOGS/kafka-topics.log" 2>&1 \
      || die_with_log kafka-topics "cannot create topic push.$channel"
  done
  # stored messages from message-service to push-service's offline push (docs/offline-push.md)
  "${java[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --if-not-exists \
    --topic message.events --partitions 6 >>"$LOGS/kafka-topics.log" 2>&1 \
    || die_with_log kafka-topics "cannot create topic message.events"
  # push task finishes and failed offline pushes from the push database to the apps' webhooks (docs/events.md)
  "${java[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --if-not-exists \
    --topic push.events --partitions 6 >>"$LOGS/kafka-topics.log" 2>&1 \
    || die_with_log kafka-topics "cannot create topic push.events"
  # svcpush device acks from message-service to push-worker (docs/events.md)
  "${java[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --if-not-exists \
    --topic push.receipts --partitions 6 >>"$LOGS/kafka-topics.log" 2>&1 \
    || die_with_log kafka-topics "cannot create topic push.receipts"
  "${java[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --if-not-exists \
    --topic push.expansion --partitions 6 --config cleanup.policy=compact,delete --config retention.ms=604800000 \
    >>"$LOGS/kafka-topics.log" 2>&1 || die_with_log kafka-topics "cannot create topic push.expansion"
}

# ---- push provider simulators -------------------------------------------------------------------------------

# Local servers speaking APNs, FCM and the five phone makers' protocols (push-simulators), so a push travels end to
# end without real providers; push-worker is pointed at them (push_worker_channel_settings).
start_simulators() {
  local jar="$ROOT/push-simulators/target/push-simulators.jar" i
  if running_pid simulators >/dev/null; then
    log "provider simulators: already running"
    return
  fi
  [[ -f "$jar" ]] || die "$jar missing: build first"
  for i in "${!SIMULATOR_CHANNELS[@]}"; do
    require_free_port "simulator ${SIMULATOR_CHANNELS[$i]}" "$((SIMULATOR_PORT + i))" SIMULATOR_PORT
  done
  require_free_port "demo webhook receiver" "$WEBHOOK_RECEIVER_PORT" SIMULATOR_PORT
  log "provider simulators: starting on 127.0.0.1:$SIMULATOR_PORT..$((SIMULATOR_PORT + 6)), the demo webhook receiver on $WEBHOOK_RECEIVER_PORT"
  launch simulators java -Xmx512m -jar "$jar" "$LOCAL/simulators" "$SIMULATOR_PORT"
  wait_for simulators 30 log_contains simulators "simulators started"
}

# push-worker's channel settings as system properties: every channel at its simulator; svcpush at message-service.
# For real providers leave these out (the defaults in push-worker's application.properties are the providers' hosts).
push_worker_channel_settings() {
  local channel url receipts="http://127.0.0.1:$GATEWAY_PORT/push/receipt"
  for channel in "${SIMULATOR_CHANNELS[@]}"; do
    url="$(simulator_url "$channel")"
    echo "-Dim.push.worker.channel.$channel.base-url=$url"
    echo "-Dim.push.worker.channel.$channel.development-base-url=$url"
    echo "-Dim.push.worker.channel.$channel.receipt-url=$receipts/$channel"
  done
  echo "-Dim.push.worker.channel.ios.trust-certificate=$LOCAL/simulators/apns-ca.pem"
  echo "-Dim.push.worker.channel.cloud.auth-url=$(simulator_url cloud)/token"
  echo "-Dim.push.worker.channel.vendor_a.auth-url=$(simulator_url vendor_a)/oauth2/v3/token"
  echo "-Dim.push.worker.channel.svcpush.base-url=http://127.0.0.1:${SERVICE_PORT[message-service]}"
}

# ---- services ----------------------------------------------------------------------------------------------

# service_aot_options SERVICE: sets aot_options, the JVM options of SERVICE after AOT_CACHE (docs/operations.md
# "AOT cache")
service_aot_options() {
  local s="$1" cache state
  cache="$(aot_cache_file "$SERVICE_CHECKOUT" "$s")"
  aot_options=()
  case "$AOT_CACHE" in
    train)
      # one-step training (JEP 514): the JVM records while it runs and has the cache assembled when it exits; the
      # fingerprint of the build is kept until aot-train.sh has checked the cache and the build after the stop
      rm -f "$cache" "$cache.build" "$cache.config"
      aot_build_fingerprint "$(dirname "$cache")" >"$cache.training"
      read -r -a aot_options <<<"$AOT_TRAINING_OPTIONS"
      aot_options+=(-XX:AOTCacheOutput="$cache")
      log "$s: training an AOT cache ($cache, written when it stops)"
      ;;
    use)
      state="$(aot_cache_state "$SERVICE_CHECKOUT" "$s")"
      if [[ "$state" == valid ]]; then
        # the default AOT mode (auto): a cache the JVM refuses (another JDK, other options) is skipped, not fatal
        aot_options=(-XX:AOTCache="$cache" -Xlog:aot=info:file="$LOGS/$s.aot.log")
      elif [[ "$state" == stale ]]; then
        log "$s: AOT cache $cache ignored: not trained on this build (deploy/local/aot-train.sh trains a new one)"
      fi
      ;;
  esac
}

# Whether each service started with AOT_CACHE=use mapped its cache (the JVM's -Xlog:aot says so).
report_aot_caches() {
  local s pid state
  [[ "$AOT_CACHE" == use ]] || return 0
  for s in "${SERVICES[@]}"; do
    pid="$(running_pid "$s")" || continue
    state="$(aot_log_state "$LOGS" "$s" "$pid")"
    case "$state" in
      mapped) log "$s: AOT cache in use" ;;
      "not mapped") log "$s: AOT cache refused by the JVM, running without it (see $LOGS/$s.aot.log)" ;;
    esac
  done
}

service_ready() {
  curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:${SERVICE_PORT[$1]}/q/health/ready"
}

# All stopped services start at once; then each gets SERVICE_WAIT_SECONDS to report ready.
start_services() {
  local s db extra_env java_options pending=() next=() deadline
  for s in "${SERVICES[@]}"; do
    if running_pid "$s" >/dev/null; then
      log "$s: already running"
    else
      require_free_port "$s" "${SERVICE_PORT[$s]}"
      db="${SERVICE_DB[$s]}"
      extra_env=()
      if [[ "$s" == auth-service ]]; then
        extra_env=(IM_JWT_PRIVATE_KEY_LOCATION="$KEYS/jwt-private.pem")
      else
        # the auth view asks auth-service about users registered a moment ago (docs/events.md)
        extra_env=(IM_AUTH_SERVICE_URL="http://127.0.0.1:${SERVICE_PORT[auth-service]}")
      fi
      java_options=()
      certificate_keys=(IM_PUSH_CERTIFICATE_KEY="$PUSH_CERTIFICATE_KEY" IM_PUSH_CERTIFICATE_KEYS="$PUSH_CERTIFICATE_KEYS"
        IM_PUSH_CERTIFICATE_KEY_CURRENT="$PUSH_CERTIFICATE_KEY_CURRENT")
      if [[ "$s" == push-service ]]; then
        # a stable replica id: a restarted push-service fences its predecessor's open Kafka transactions at once
        # the certificate test send goes to push-worker's own port (never through the gateway)
        # cloud service accounts must name the token endpoint push-worker asks: the simulator's (lib.sh uploads one)
        # uncompressed channel records: on one host compression saves no network and costs push-service ~40 % of
        # its CPU during an expansion (docs/push-fanout.md "Compression")
        extra_env+=("${certificate_keys[@]}" IM_PUSH_FANOUT_REPLICA_ID=local-push-service
          IM_PUSH_FANOUT_COMPRESSION=none
          IM_PUSH_RECEIPT_BASE_URL="http://127.0.0.1:$GATEWAY_PORT" IM_PUSH_WORKER_URL="http://127.0.0.1:${SERVICE_PORT[push-worker]}"
          IM_PUSH_CERTIFICATE_CLOUD_TOKEN_URI="$(simulator_url cloud)/token")
      elif [[ "$s" == message-service ]]; then
        # the demo app's webhook endpoint is the receiver beside the simulators, on loopback (docs/webhooks.md)
        extra_env+=(IM_WEBHOOKS_LOOPBACK_ALLOWED=true IM_WEBHOOKS_SECRET_KEY="$WEBHOOKS_SECRET_KEY")
        extra_env+=(IM_FILE_STORE_ENDPOINT="http://127.0.0.1:$OBJECT_STORE_PORT" IM_FILE_STORE_BUCKET="$OBJECT_STORE_BUCKET"
          IM_FILE_STORE_ACCESS_KEY="$OBJECT_STORE_ACCESS_KEY" IM_FILE_STORE_SECRET_KEY="$OBJECT_STORE_SECRET")
      elif [[ "$s" == push-worker ]]; then
        extra_env+=("${certificate_keys[@]}")
        mapfile -t java_options < <(push_worker_channel_settings)
      fi
      # the operator's key only where operator endpoints are: push-worker has none
      [[ "$s" == push-worker ]] || extra_env+=(IM_PLATFORM_KEY="$PLATFORM_KEY")
      service_aot_options "$s"
      # JVM limits from the service's jvm.options (as in its image); glibc keeps a malloc arena per allocating
      # thread, two arenas bound that native memory (docs/operations.md "JVM memory limits")
      log "$s: starting on 127.0.0.1:${SERVICE_PORT[$s]}"
      launch "$s" env \
        QUARKUS_HTTP_HOST=127.0.0.1 \
        QUARKUS_HTTP_PORT="${SERVICE_PORT[$s]}" \
        QUARKUS_DATASOURCE_JDBC_URL="$JDBC_BASE/$db" \
        QUARKUS_DATASOURCE_USERNAME="$db" \
        QUARKUS_DATASOURCE_PASSWORD="$db" \
        QUARKUS_DATASOURCE_JDBC_MAX_SIZE="${POOL_SIZE[$s]}" \
        KAFKA_BOOTSTRAP_SERVERS="$KAFKA_BOOTSTRAP" \
        MP_JWT_VERIFY_PUBLICKEY_LOCATION="$KEYS/jwt-jwks.json" \
        IM_INTERNAL_KEY="$INTERNAL_KEY" \
        IM_THROTTLE_TRUSTED_PROXIES=127.0.0.1 \
        IM_THROTTLE_REGISTRATION_BURST="$REGISTRATION_BURST" \
        "${extra_env[@]}" \
        MALLOC_ARENA_MAX=2 \
        "$SERVICE_JAVA" "@$SERVICE_CHECKOUT/$s/src/main/jvm/jvm.options" "${java_options[@]}" \
        "${aot_options[@]}" -jar "$SERVICE_CHECKOUT/$s/target/quarkus-app/quarkus-run.jar"
    fi
    pending+=("$s")
  done
  deadline=$((SECONDS + SERVICE_WAIT_SECONDS))
  while ((${#pending[@]} > 0)); do
    next=()
    for s in "${pending[@]}"; do
      if service_ready "$s"; then
        log "$s: ready"
      elif ! launched_alive "$s"; then
        die_with_log "$s" "process exited during startup"
      elif ((SECONDS >= deadline)); then
        die_with_log "$s" "not ready after $SERVICE_WAIT_SECONDS s"
      else
        next+=("$s")
      fi
    done
    pending=("${next[@]}")
    ((${#pending[@]} == 0)) || sleep 1
  done
}

# ---- gateway -----------------------------------------------------------------------------------------------

gateway_ready() {
  [[ "$(curl -fsS --max-time 2 "$BASE_URL/nope" 2>/dev/null)" == *'"code":10002'* ]]
}

start_gateway() {
  local dir="$LOCAL/nginx" s pairs=() pid
  mkdir -p "$dir/tmp"
  for s in "${SERVICES[@]}"; do
    pairs+=("$s=${SERVICE_PORT[$s]}")
  done
  pairs+=("console=$CONSOLE_PORT" "stub_status=$NGINX_STATUS_PORT")
  "$ROOT/deploy/gateway/render-nginx.sh" "$GATEWAY_PORT" "$dir" "$LOGS/gateway-error.log" "${pairs[@]}" >"$dir/nginx.conf.new"
  local nginx=(nginx -p "$dir/" -e "$LOGS/gateway-error.log" -c "$dir/nginx.conf")
  if pid="$(running_pid gateway)"; then
    if cmp -s "$dir/nginx.conf.new" "$dir/nginx.conf"; then
      rm "$dir/nginx.conf.new"
      log "gateway: already running"
    else
      # routes.tsv changed: nginx reloads its config on SIGHUP without dropping connections.
      mv "$dir/nginx.conf.new" "$dir/nginx.conf"
      "${nginx[@]}" -t -q || die "gateway: invalid generated config $dir/nginx.conf"
      kill -HUP "$pid"
      log "gateway: routes reloaded"
    fi
  else
    require_free_port gateway "$GATEWAY_PORT" GATEWAY_PORT
    mv "$dir/nginx.conf.new" "$dir/nginx.conf"
    "${nginx[@]}" -t -q || die "gateway: invalid generated config $dir/nginx.conf"
    log "gateway: starting on 127.0.0.1:$GATEWAY_PORT"
    launch gateway "${nginx[@]}"
  fi
  wait_for gateway 15 gateway_ready
}

# ---- console -----------------------------------------------------------------------------------------------

console_ready() {
  curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$CONSOLE_PORT/q/health/ready"
}

# The console calls each service on its own port: the System page reads /q/health and /q/metrics, which the
# gateway does not route.
start_console() {
  if running_pid console >/dev/null; then
    log "console: already running"
    return
  fi
  [[ -f console/target/quarkus-app/quarkus-run.jar ]] || die "console/target/quarkus-app/quarkus-run.jar missing: build first"
  require_free_port console "$CONSOLE_PORT" CONSOLE_PORT
  log "console: starting on 127.0.0.1:$CONSOLE_PORT"
  launch console env \
    QUARKUS_HTTP_HOST=127.0.0.1 \
    QUARKUS_HTTP_PORT="$CONSOLE_PORT" \
    IM_CONSOLE_AUTH_SERVICE_URL="http://127.0.0.1:${SERVICE_PORT[auth-service]}" \
    IM_CONSOLE_MESSAGE_SERVICE_URL="http://127.0.0.1:${SERVICE_PORT[message-service]}" \
    IM_CONSOLE_PUSH_SERVICE_URL="http://127.0.0.1:${SERVICE_PORT[push-service]}" \
    IM_CONSOLE_PUSH_WORKER_URL="http://127.0.0.1:${SERVICE_PORT[push-worker]}" \
    IM_CONSOLE_PROMETHEUS_URL="$PROMETHEUS_URL" \
    java -Xmx128m -jar "$ROOT/console/target/quarkus-app/quarkus-run.jar"
  wait_for console "$SERVICE_WAIT_SECONDS" console_ready
}

# ---- monitoring --------------------------------------------------------------------------------------------

# Prometheus (Debian's package, retention 1 day) scraping the services, the gateway through nginx's exporter and
# PostgreSQL through its exporter, with the alert and SLO rules of deploy/monitoring/rules (docs/operations.md
# "Monitoring"). Kafka's consumer lag comes from the services' own metrics. A running Prometheus reloads a changed
# configuration on SIGHUP.
start_monitoring() {
  local dir="$LOCAL/prometheus" s pid
  deploy/local/install-monitoring.sh || die "monitoring: cannot install Prometheus and its exporters"
  mkdir -p "$dir/data"
  {
    cat <<EOF
# Generated by deploy/local/up.sh for the local stack.
global:
  scrape_interval: 5s
  evaluation_interval: 5s
rule_files:
  - $ROOT/deploy/monitoring/rules/*.yml
scrape_configs:
EOF
    for s in "${SERVICES[@]}"; do
      printf '  - job_name: %s\n    metrics_path: /q/metrics\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
        "$s" "${SERVICE_PORT[$s]}"
    done
    printf '  - job_name: %s\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
      gateway "$NGINX_EXPORTER_PORT" postgres "$PG_EXPORTER_PORT" prometheus "$PROMETHEUS_PORT"
  } >"$dir/prometheus.yml.new"
  promtool check config "$dir/prometheus.yml.new" >/dev/null || die "monitoring: invalid generated $dir/prometheus.yml.new"
  if pid="$(running_pid prometheus)"; then
    if cmp -s "$dir/prometheus.yml.new" "$dir/prometheus.yml"; then
      rm "$dir/prometheus.yml.new"
      log "Prometheus: already running"
    else
      mv "$dir/prometheus.yml.new" "$dir/prometheus.yml"
      kill -HUP "$pid"
      log "Prometheus: configuration reloaded"
    fi
  else
    mv "$dir/prometheus.yml.new" "$dir/prometheus.yml"
    require_free_port Prometheus "$PROMETHEUS_PORT" MONITORING_PORT_BASE
    log "Prometheus: starting on $PROMETHEUS_URL"
    launch prometheus prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
      --storage.tsdb.retention.time=1d --web.listen-address="127.0.0.1:$PROMETHEUS_PORT"
  fi
  if [[ -z "${EXTERNAL_PG_URL_BASE:-}" ]] && ! running_pid pg-exporter >/dev/null; then
    require_free_port "PostgreSQL exporter" "$PG_EXPORTER_PORT" MONITORING_PORT_BASE
    # pg_stat_database covers every database of the server: one connection as the push role is enough
    launch pg-exporter env DATA_SOURCE_NAME="postgresql://push:push@127.0.0.1:$PG_PORT/push?sslmode=disable" \
      prometheus-postgres-exporter --web.listen-address="127.0.0.1:$PG_EXPORTER_PORT"
  fi
  if ! running_pid nginx-exporter >/dev/null; then
    require_free_port "nginx exporter" "$NGINX_EXPORTER_PORT" MONITORING_PORT_BASE
    launch nginx-exporter prometheus-nginx-exporter -web.listen-address="127.0.0.1:$NGINX_EXPORTER_PORT" \
      -nginx.scrape-uri="http://127.0.0.1:$NGINX_STATUS_PORT/stub_status"
  fi
  wait_for prometheus 30 curl -fs -o /dev/null --max-time 2 "$PROMETHEUS_URL/-/ready"
}

# ---- demo app ----------------------------------------------------------------------------------------------

# True when .local/env holds an admin token that still works: any answer but 10008 (token invalid) or
# 40000 (app unknown, e.g. the databases were purged) means it does.
demo_app_valid() {
  [[ -f "$LOCAL/env" ]] || return 1
  local app_id admin_token code
  app_id="$(source "$LOCAL/env" && echo "$APP_ID")"
  admin_token="$(source "$LOCAL/env" && echo "$ADMIN_TOKEN")"
  code="$(json_get "$(curl -sS --max-time 10 -H "app_id: $app_id" -H "access-token: $admin_token" \
    "$BASE_URL/user/device/list")" 'd["code"]')" || return 1
  [[ "$code" != 10008 && "$code" != 40000 ]] || return 1
  APP_ID="$app_id" ADMIN_TOKEN="$admin_token"
}

ensure_demo_app() {
  local response
  if demo_app_valid; then
    log "demo app: kept from .local/env"
  else
    log "demo app: creating"
    response="$(curl -sS --max-time 10 -X POST -H "platform-key: $PLATFORM_KEY" \
      -H 'Content-Type: application/json' -d '{"name":"demo"}' "$BASE_URL/app/create")"
    [[ "$(json_get "$response" 'd["code"]' 2>/dev/null)" == 200 ]] || die "POST /app/create answered: $response"
    APP_ID="$(json_get "$response" 'd["data"]["app_id"]')"
    ADMIN_TOKEN="$(json_get "$response" 'd["data"]["admin_token"]')"
  fi
  printf 'BASE_URL=%q\nAPP_ID=%q\nADMIN_TOKEN=%q\nPLATFORM_KEY=%q\n' \
    "$BASE_URL" "$APP_ID" "$ADMIN_TOKEN" "$PLATFORM_KEY" >"$LOCAL/env.tmp"
  mv "$LOCAL/env.tmp" "$LOCAL/env"
}

# Push on for the demo app, with a certificate per provider (production environment) whose credentials the
# simulators accept: devices bound with notifier_name demo-<channel> are pushed to end to end.
ensure_demo_push() {
  local response
  response="$(curl -sS --max-time 10 -X POST -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
    "$BASE_URL/push/enable?value=true")"
  [[ "$(json_get "$response" 'd["code"]' 2>/dev/null)" == 200 ]] || die "POST /push/enable answered: $response"
  upload_simulator_certificates "$APP_ID" "$ADMIN_TOKEN" "demo-%s" || die "uploading the demo certificates failed"
  log "demo app: push on, certificates demo-ios, demo-cloud, demo-vendor_a .. demo-vendor_e (at the simulators)"
}

# Huawei's receipt address is set in the provider's console, not per message: the demo app's callback URL (with
# its receipt key, docs/api-decisions.md "Receipt keys") goes to the simulator, as an admin pastes it into Huawei's
# console. Every start: the simulator forgets it when it stops.
ensure_demo_receipts() {
  local response url
  response="$(curl -sS --max-time 10 -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" "$BASE_URL/push/receipt_key")"
  url="$(json_get "$response" 'd["data"]["callbacks"]["vendor_a"]' 2>/dev/null)" \
    || die "GET /push/receipt_key answered: $response"
  curl -fsS --max-time 5 -X POST -H 'Content-Type: application/json' --data "{\"url\":\"$url\"}" \
    "$(simulator_url vendor_a)/_sim/receipt" >/dev/null || die "the vendor_a simulator refused its receipt address"
  log "demo app: Huawei's delivery receipts go to $url"
}

# The demo app's webhook: every event to the receiver beside the simulators, which logs it (.local/logs/simulators.log)
# and verifies its signature with the secret it is given here. Every start: the receiver forgets the secret when it
# stops, and posting the settings again rotates it (docs/webhooks.md "Trying it").
ensure_demo_webhook() {
  local response secret
  response="$(curl -sS --max-time 10 -X POST -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
    -H 'Content-Type: application/json' -d "{\"url\":\"$WEBHOOK_RECEIVER_URL/demo\",\"events\":[\"*\"]}" \
    "$BASE_URL/app/webhook")"
  secret="$(json_get "$response" 'd["data"]["secret"]' 2>/dev/null)" || die "POST /app/webhook answered: $response"
  curl -fsS --max-time 5 -X POST -H 'Content-Type: application/json' --data "{\"secret\":\"$secret\"}" \
    "$WEBHOOK_RECEIVER_URL/_sim/secret" >/dev/null || die "the webhook receiver refused the demo app's secret"
  log "demo app: webhook events go to $WEBHOOK_RECEIVER_URL/demo (logged in $LOGS/simulators.log, signatures verified)"
}

# One demo user per channel, each with a phone whose provider token is bound to the demo certificate of that
# channel, so that a push to "all" from the console (or /push/notify) travels to every simulator without any other
# setup. Created once: a user name already taken means an earlier run made them.
ensure_demo_phones() {
  local channel response password token made=0
  password="$(openssl rand -hex 12)"
  for channel in ios cloud vendor_a vendor_b vendor_c vendor_d vendor_e; do
    response="$(curl -sS --max-time 10 -H "app_id: $APP_ID" -H 'Content-Type: application/json' \
      -d "{\"username\":\"demo_phone_$channel\",\"password\":\"$password\"}" "$BASE_URL/user/register/v2")"
    [[ "$(json_get "$response" 'd["code"]' 2>/dev/null)" == 200 ]] || continue
    response="$(curl -sS --max-time 10 -H "app_id: $APP_ID" -H 'Content-Type: application/json' \
      -d "{\"name\":\"demo_phone_$channel\",\"password\":\"$password\",\"device_guid\":\"demo-phone-$channel\"}" \
      "$BASE_URL/token/user")"
    token="$(json_get "$response" 'd["data"]["token"]' 2>/dev/null)" || die "POST /token/user answered: $response"
    response="$(curl -sS --max-time 10 -H "app_id: $APP_ID" -H "access-token: $token" -H 'Content-Type: application/json' \
      -d "{\"device_sn\":1,\"device_token\":\"demo-$channel-phone-token\",\"notifier_name\":\"demo-$channel\"}" \
      "$BASE_URL/user/token/bind")"
    [[ "$(json_get "$response" 'd["code"]' 2>/dev/null)" == 200 ]] || die "POST /user/token/bind answered: $response"
    made=$((made + 1))
  done
  ((made == 0)) || log "demo app: $made demo phones (users demo_phone_ios .. demo_phone_vendor_e), one per channel"
}

# ---- main --------------------------------------------------------------------------------------------------

started=$SECONDS
mkdir -p "$PIDS" "$LOGS"
chmod 755 "$LOCAL" # the postgres user must reach .local/pgdata
ensure_tools
build_services
ensure_keys
start_postgres
check_connection_budget
start_kafka
start_object_store
start_simulators
start_services
report_aot_caches
start_console
start_gateway
[[ "${MONITORING:-1}" == 0 ]] || start_monitoring
ensure_demo_app
ensure_demo_push
ensure_demo_receipts
ensure_demo_webhook
ensure_demo_phones
log "stack up in $((SECONDS - started)) s; source $LOCAL/env for:"
cat "$LOCAL/env"
[[ "${MONITORING:-1}" == 0 ]] || log "Prometheus: $PROMETHEUS_URL (alerts: $PROMETHEUS_URL/alerts; rules and dashboards: deploy/monitoring)"
log "console: open $BASE_URL/console/ and sign in as app admin with APP_ID and ADMIN_TOKEN above"
log "console: then Compose push, audience all: the report shows it reach the demo phones of every channel"

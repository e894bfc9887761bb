# Sourced by the benchmarks that need a PostgreSQL of their own (audience-page.sh, audience-count.sh, throttle-cost.sh): starts a
# scratch PostgreSQL 15 on 127.0.0.1:$PORT in a temporary directory and removes it when the script exits. Needs the
# PostgreSQL 15 server binaries (/usr/lib/postgresql/15/bin); run as root (initdb runs as user postgres).
# Defines BIN (the server binaries), DIR (the temporary directory, for the caller's files too) and psql (the
# superuser on database postgres, unaligned, stopping at the first error).
BIN=/usr/lib/postgresql/15/bin
DIR="$(mktemp -d)"
chown postgres "$DIR"
as_pg() { runuser -u postgres -- "$@"; }
scratch_pg_cleanup() { as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$DIR"; }
trap scratch_pg_cleanup EXIT
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres >/dev/null 2>&1
as_pg "$BIN/pg_ctl" -D "$DIR/data" -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1" -l "$DIR/log" -w start >/dev/null
psql() { "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"; }
# seed_push_devices: push-service's schema (the outbox, the auth view, the throttle tables, its migrations) and $DEVICES devices of app
# $APP seeded as deploy/bench/push.sh seeds them, analyzed (audience-page.sh, audience-count.sh).
seed_push_devices() {
  local f start
  for f in "$ROOT"/common/src/main/resources/db/outbox/*.sql "$ROOT"/common/src/main/resources/db/authview/*.sql \
    "$ROOT"/throttling/src/main/resources/db/throttle/*.sql \
    $(ls "$ROOT"/push-service/src/main/resources/db/migration/V*.sql | sort -V); do
    psql -f "$f"
  done
  start=$(date +%s)
  psql -v app="$APP" -v n="$DEVICES" -f "$ROOT/deploy/bench/seed-push-devices.sql"
  psql -c "vacuum analyze push_devices" -c "vacuum analyze push_device_tokens" -c "vacuum analyze push_presence"
  echo "seeded in $(($(date +%s) - start)) s"
}

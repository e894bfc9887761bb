# Sourced by the benchmarks that need a PostgreSQL of their own (audience-page.sh, throttle-cost.sh): starts a
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

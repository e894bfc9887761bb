#!/usr/bin/env bash
# Benchmark of auth-service through the local stack's gateway (docs/benchmarks.md records the figures):
#   1. token issuance per second (POST /token/user, which verifies a bcrypt hash and signs an RS256 token),
#      next to the raw bcrypt rate of the same cost on the same machine in the same run;
#   2. requests per second of an authenticated read (GET /user/device/list: token signature + revocation check
#      + one indexed query), through the gateway and directly, next to the gateway's own no-op answer.
# Usage: deploy/bench/auth.sh   (starts the stack with deploy/local/up.sh unless BENCH_SKIP_UP=1)
# Knobs: DURATION (seconds per phase, default 20), TOKEN_CONCURRENCY (default 4), READ_CONCURRENCY (default 64),
#        BCRYPT_COST (must match the service's im.auth.bcrypt-cost, default 10).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../local/lib.sh
source "$HERE/../local/lib.sh" # ROOT, LOCAL (LOCAL_DIR), SERVICE_PORT (SERVICE_PORT_BASE)
cd "$ROOT"

DURATION="${DURATION:-20}"
TOKEN_CONCURRENCY="${TOKEN_CONCURRENCY:-4}"
READ_CONCURRENCY="${READ_CONCURRENCY:-64}"
BCRYPT_COST="${BCRYPT_COST:-10}"
AUTH_DIRECT="http://127.0.0.1:${SERVICE_PORT[auth-service]}"

if ! command -v hey >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hey >/dev/null
fi
[[ "${BENCH_SKIP_UP:-}" == 1 ]] || deploy/local/up.sh >/dev/null
# shellcheck source=/dev/null
source "$LOCAL/env"

json_field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }

# One user with one device; the preflight calls must succeed, or the load would measure errors.
USERNAME="bench_$(date +%s)_$RANDOM"
PASSWORD="bench-password-1"
code=$(curl -fsS -H "app_id: $APP_ID" -H 'Content-Type: application/json' \
  -d "{\"username\":\"$USERNAME\",\"password\":\"$PASSWORD\"}" "$BASE_URL/user/register/v2" | json_field "['code']")
[[ "$code" == 200 ]] || { echo "bench: registration failed (code $code)" >&2; exit 1; }
LOGIN="{\"name\":\"$USERNAME\",\"password\":\"$PASSWORD\"}"
TOKEN=$(curl -fsS -H "app_id: $APP_ID" -H 'Content-Type: application/json' \
  -d "{\"name\":\"$USERNAME\",\"password\":\"$PASSWORD\",\"device_guid\":\"bench-device\"}" "$BASE_URL/token/user" \
  | json_field "['data']['token']")
code=$(curl -fsS -H "app_id: $APP_ID" -H "access-token: $TOKEN" "$BASE_URL/user/device/list" | json_field "['code']")
[[ "$code" == 200 ]] || { echo "bench: authenticated read failed (code $code)" >&2; exit 1; }

# run NAME hey-args...: prints "NAME|requests/s|p50 ms|p99 ms|non-200 responses"
run() {
  local name="$1" out
  shift
  out=$(hey -z "${DURATION}s" "$@")
  python3 - "$name" "$out" <<'PY'
import re, sys
name, out = sys.argv[1], sys.argv[2]
rps = re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)
pct = lambda p: float(re.search(rf"{p}% in ([\d.]+) secs", out).group(1)) * 1000
codes = dict((int(c), int(n)) for c, n in re.findall(r"\[(\d+)\]\s+(\d+) responses", out))
transport_errors = re.findall(r"^\s+\[(\d+)\]\s+(?:Get|Post)", out, re.M)
errors = sum(n for c, n in codes.items() if c != 200) + sum(int(n) for n in transport_errors)
print(f"{name}|{float(rps):.1f}|{pct(50):.1f}|{pct(99):.1f}|{errors}")
PY
}

echo "bench: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(date -u +%Y-%m-%dT%H:%MZ), ${DURATION}s per phase"
results=()
results+=("$(run "token issuance, POST /token/user, c=$TOKEN_CONCURRENCY" -c "$TOKEN_CONCURRENCY" -m POST \
  -T application/json -H "app_id: $APP_ID" -d "$LOGIN" "$BASE_URL/token/user")")
hash_rate=$(java -cp 'auth-service/target/quarkus-app/app/*:auth-service/target/quarkus-app/lib/main/*' \
  io.imcore.auth.user.HashRate "$BCRYPT_COST" "$DURATION" "$(nproc)")
results+=("$(run "authenticated read via gateway, c=$READ_CONCURRENCY" -c "$READ_CONCURRENCY" \
  -H "app_id: $APP_ID" -H "access-token: $TOKEN" "$BASE_URL/user/device/list")")
results+=("$(run "authenticated read direct to auth-service, c=$READ_CONCURRENCY" -c "$READ_CONCURRENCY" \
  -H "app_id: $APP_ID" -H "access-token: $TOKEN" "$AUTH_DIRECT/user/device/list")")
results+=("$(run "gateway no-op (nginx answers unknown path), c=$READ_CONCURRENCY" -c "$READ_CONCURRENCY" \
  "$BASE_URL/bench-noop")")

echo
echo "| phase | requests/s | p50 ms | p99 ms | non-200 |"
echo "|---|---|---|---|---|"
for r in "${results[@]}"; do echo "| ${r//|/ | } |"; done
echo
echo "raw $hash_rate"
# Resident memory right after the load, per process the stack started.
for pidfile in "$PIDS"/*.pid; do
  name="$(basename "$pidfile" .pid)"
  rss_kb="$(ps -o rss= -p "$(<"$pidfile")" 2>/dev/null || true)"
  [[ -n "$rss_kb" ]] && echo "rss $name: $((rss_kb / 1024)) MiB"
done

#!/usr/bin/env bash
# End-to-end smoke test: brings the local stack up (up.sh), drives a real scenario through the gateway and
# asserts every answer, then always takes the stack down again (down.sh).
# A step is a function step_NAME listed in STEPS; it calls the gateway with `call` and checks with `expect`.
# Ends with the line "smoke: N passed, M failed"; exits non-zero on the first failed assertion.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/lib.sh"

passed=0
failed=0
RESPONSE=""

# Whatever ended the run (a failed assertion, up.sh failing, an error), the stack goes down and the count shows.
finish() {
  local rc=$?
  "$HERE/down.sh" || rc=1
  if ((rc != 0 && failed == 0)); then
    failed=1
  fi
  echo "smoke: $passed passed, $failed failed"
  exit $((failed > 0))
}
trap finish EXIT

# call METHOD PATH [BODY] [HEADER...]: one request through the gateway; the answer lands in RESPONSE.
call() {
  local method="$1" path="$2" body="${3:-}" args=() header
  shift $(($# < 3 ? $# : 3))
  for header in "$@"; do
    args+=(-H "$header")
  done
  if [[ -n "$body" ]]; then
    args+=(-H "Content-Type: application/json" --data "$body")
  fi
  echo "  $method $path"
  RESPONSE="$(curl -sS --max-time 20 -X "$method" "${args[@]}" "$BASE_URL$path")" || RESPONSE="(curl failed)"
}

# expect DESCRIPTION PYTHON_EXPR: EXPR, evaluated on the parsed RESPONSE as `d`, must be true.
expect() {
  if [[ "$(json_get "$RESPONSE" "bool($2)" 2>/dev/null)" == True ]]; then
    passed=$((passed + 1))
    echo "    ok: $1"
  else
    failed=$((failed + 1))
    echo "    FAILED: $1" >&2
    echo "      expected: $2" >&2
    echo "      response: $RESPONSE" >&2
    exit 1
  fi
}

# ---- steps -------------------------------------------------------------------------------------------------

step_stack_up() {
  "$HERE/up.sh"
  passed=$((passed + 1))
  echo "    ok: stack up"
  source "$LOCAL/env"
  USERNAME="smoke_$(date +%s)_$RANDOM"
  PASSWORD="secret-pass-1"
}

step_register_user() {
  call POST /user/register/v2 "{\"username\":\"$USERNAME\",\"password\":\"$PASSWORD\"}" "app_id: $APP_ID"
  expect "registered" 'd["code"] == 200'
  expect "user_id > 0" 'd["data"]["user_id"] > 0'
  USER_ID="$(json_get "$RESPONSE" 'd["data"]["user_id"]')"
}

step_user_token() {
  call POST /token/user "{\"name\":\"$USERNAME\",\"password\":\"$PASSWORD\",\"device_guid\":\"smoke-device-1\"}" \
    "app_id: $APP_ID"
  expect "token issued" 'd["code"] == 200'
  expect "token for user $USER_ID" "d['data']['user_id'] == $USER_ID"
  expect "token non-empty" 'len(d["data"]["token"]) > 0'
  expect "push_token non-empty" 'len(d["data"]["push_token"]) > 0'
  expect "device_sn is 1" 'd["data"]["device_sn"] == 1'
  USER_TOKEN="$(json_get "$RESPONSE" 'd["data"]["token"]')"
}

step_device_list() {
  call GET /user/device/list "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "devices listed" 'd["code"] == 200'
  expect "one device, device_sn 1" '[x["device_sn"] for x in d["data"]] == [1]'
}

step_admin_acts_as_user() {
  call GET /user/device/list "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $USER_ID"
  expect "admin sees the user's device" '[x["device_guid"] for x in d["data"]] == ["smoke-device-1"]'
  call GET /user/device/list "" "app_id: $APP_ID" "access-token: $USER_TOKEN" "user_id: $USER_ID"
  expect "user token with user_id header gets 10010" 'd["code"] == 10010'
}

# A user registered a moment ago can receive at once: message-service's auth view may not have the event yet,
# so it asks auth-service (docs/events.md). Three fresh users, each sent to right after registration.
step_message_to_just_registered() {
  local i peer
  PEERS=()
  for i in 1 2 3; do
    call POST /user/register/v2 "{\"username\":\"${USERNAME}_p$i\",\"password\":\"$PASSWORD\"}" "app_id: $APP_ID"
    expect "peer $i registered" 'd["code"] == 200'
    peer="$(json_get "$RESPONSE" 'd["data"]["user_id"]')"
    PEERS+=("$peer")
    call POST /message/send "{\"content_type\":0,\"content\":\"hello $i\",\"targets\":[$peer],\"type\":1}" \
      "app_id: $APP_ID" "access-token: $USER_TOKEN"
    expect "message to the just-registered peer $i accepted" 'd["code"] == 200 and d["data"] is True'
  done
}

step_conversation_and_receipt() {
  local peer="${PEERS[0]}" msg_id
  call GET /message/unread "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $peer"
  expect "the peer has one unread conversation with the sender" \
    "[(x['conversation_id']['uid'], x['num']) for x in d['data']] == [($USER_ID, 1)]"
  call GET "/message/conversation?opposite_id=$USER_ID&limit=20" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" \
    "user_id: $peer"
  expect "the page holds the message, unread" \
    '[(m["content"], m["status"], m["ctype"]) for m in d["data"]["messages"]] == [("hello 1", "UNREAD", "TEXT")]'
  msg_id="$(json_get "$RESPONSE" 'd["data"]["messages"][0]["msg_id"]')"
  call GET "/message/ack?conversation_id=$USER_ID&device_sn=0&msg_id=$msg_id" "" "app_id: $APP_ID" \
    "access-token: $ADMIN_TOKEN" "user_id: $peer"
  expect "read receipt accepted" 'd["code"] == 200'
  call GET "/message/conversation?opposite_id=${PEERS[0]}" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "the sender sees it READ" '[m["status"] for m in d["data"]["messages"]] == ["READ"]'
  call POST /message/send "{\"content_type\":0,\"content\":\"x\",\"targets\":[999999999999],\"type\":1}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "unknown target gets 10000" 'd["code"] == 10000'
}

step_group() {
  call POST /group/create "{\"name\":\"smoke group\",\"user_list\":[${PEERS[1]},${PEERS[2]}]}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "group created with 3 members" 'd["code"] == 200 and d["data"]["member_count"] == 3'
  GROUP_ID="$(json_get "$RESPONSE" 'd["data"]["group_id"]')"
  call POST /message/send "{\"content_type\":0,\"content\":\"hi group\",\"targets\":[$GROUP_ID],\"type\":2}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "group message sent" 'd["code"] == 200'
  call GET /message/unread "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: ${PEERS[2]}"
  expect "a member has the group unread, most recent first" \
    "[(x['conversation_id']['uid'], x['num']) for x in d['data']][0] == ($GROUP_ID, 1)"
  call GET "/user/online_status" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "online status answers (no device connected)" 'd["code"] == 200 and d["data"]["online"] is False'
}

step_password_change_revokes() {
  call POST /user/change_password "{\"old_password\":\"$PASSWORD\",\"new_password\":\"new-secret-2\"}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "password changed" 'd["code"] == 200'
  call GET /user/device/list "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "old token revoked (10008)" 'd["code"] == 10008'
  PASSWORD="new-secret-2"
}

step_wrong_password() {
  call POST /token/user "{\"name\":\"$USERNAME\",\"password\":\"wrong-pass-1\"}" "app_id: $APP_ID"
  expect "login refused with 10013" 'd["code"] == 10013'
}

step_unknown_path() {
  call GET /nope
  expect "unknown path gets 10002" 'd["code"] == 10002'
}

# Straight to the services' own ports: the gateway does not route /q/*.
step_health() {
  local s
  for s in push-service message-service; do
    echo "  GET 127.0.0.1:${SERVICE_PORT[$s]}/q/health/ready"
    RESPONSE="$(curl -sS --max-time 10 "http://127.0.0.1:${SERVICE_PORT[$s]}/q/health/ready")" || RESPONSE="(curl failed)"
    expect "$s ready" 'd["status"] == "UP"'
  done
}

STEPS=(stack_up register_user user_token device_list admin_acts_as_user message_to_just_registered
  conversation_and_receipt group password_change_revokes wrong_password unknown_path health)

for step in "${STEPS[@]}"; do
  echo "smoke: $step"
  "step_$step"
done

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
  PUSH_TOKEN="$(json_get "$RESPONSE" 'd["data"]["push_token"]')"
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

# Recall and edit (docs/api-decisions.md "Recall and edit"): the sender corrects a message, the peer's page shows
# the new text and when; then the sender recalls it, and the peer's page keeps its place, RECALLED and empty.
step_recall_and_edit() {
  local peer="${PEERS[1]}" msg_id
  call POST /message/send "{\"content_type\":0,\"content\":\"see you at 8\",\"targets\":[$peer],\"type\":1}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "message sent" 'd["code"] == 200'
  call GET "/message/conversation?opposite_id=$peer&limit=1" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  msg_id="$(json_get "$RESPONSE" 'd["data"]["messages"][0]["msg_id"]')"
  call POST /message/edit "{\"conversation_id\":$peer,\"msg_id\":$msg_id,\"content\":\"see you at 9\"}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "edit accepted" 'd["code"] == 200 and d["data"] is True'
  call GET "/message/conversation?opposite_id=$USER_ID&limit=1" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" \
    "user_id: $peer"
  expect "the peer sees the new text and when it was edited" \
    "[(m['msg_id'], m['content'], m['edited_at'] > 0) for m in d['data']['messages']] == [($msg_id, 'see you at 9', True)]"
  call POST /message/recall "{\"conversation_id\":$peer,\"msg_id\":$msg_id}" "app_id: $APP_ID" \
    "access-token: $USER_TOKEN"
  expect "recall accepted" 'd["code"] == 200 and d["data"] is True'
  call GET "/message/conversation?opposite_id=$USER_ID&limit=1" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" \
    "user_id: $peer"
  expect "the peer sees it recalled, its text gone" \
    "[(m['msg_id'], m['status'], m['content']) for m in d['data']['messages']] == [($msg_id, 'RECALLED', '')]"
  call POST /message/recall "{\"conversation_id\":$USER_ID,\"msg_id\":$msg_id}" "app_id: $APP_ID" \
    "access-token: $ADMIN_TOKEN" "user_id: $peer"
  expect "recalling again (an admin acting as the peer) answers the same" 'd["code"] == 200 and d["data"] is True'
}

# Read receipts of a message in the 3-member group of step group: one member reads it, the sender sees who.
step_group_receipts() {
  local msg_id
  call GET "/message/conversation?opposite_id=$GROUP_ID&limit=1" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  msg_id="$(json_get "$RESPONSE" 'd["data"]["messages"][0]["msg_id"]')"
  call GET "/message/ack?conversation_id=$GROUP_ID&msg_id=$msg_id" "" "app_id: $APP_ID" \
    "access-token: $ADMIN_TOKEN" "user_id: ${PEERS[1]}"
  expect "a member read the group message" 'd["code"] == 200'
  call GET "/message/receipts?group_id=$GROUP_ID&msg_id=$msg_id" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "the sender sees one member read it and one not" \
    "d['code'] == 200 and (d['data']['read'], d['data']['unread']) == (1, 1) and d['data']['read_users'] == [${PEERS[1]}] and d['data']['unread_users'] == [${PEERS[2]}]"
  call GET "/message/receipts?group_id=$GROUP_ID&msg_id=$msg_id" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" \
    "user_id: ${PEERS[2]}"
  expect "a member who did not send it gets 20004" 'd["code"] == 20004'
}

# A message and a sync of it: the peer's log from its end, one message, then the sync from that cursor shows it
# once (docs/api-decisions.md "Sync").
step_sync() {
  local peer="${PEERS[1]}" cursor
  call GET "/message/sync?limit=500" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $peer"
  expect "the peer's log reads (admin acting as the peer)" 'd["code"] == 200 and d["data"]["has_more"] is False'
  cursor="$(json_get "$RESPONSE" 'd["data"]["cursor"]')"
  call POST /message/send "{\"content_type\":0,\"content\":\"sync me\",\"targets\":[$peer],\"type\":1}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "message sent" 'd["code"] == 200'
  call GET "/message/sync?cursor=$cursor" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $peer"
  expect "the sync from the cursor holds the message once, from the sender" \
    "[(e['type'], e['conversation_id'], e['message']['content']) for e in d['data']['events']] == [('message', $USER_ID, 'sync me')]"
  call GET "/message/sync?cursor=not-a-cursor" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $peer"
  expect "a bad cursor gets 10002 naming cursor" 'd["code"] == 10002 and d["message"].startswith("cursor")'
}

# ---- files (docs/files.md) ----------------------------------------------------------------------------------

# An image message: the sender declares the upload, PUTs the bytes straight to the object store with the signed
# headers, completes it (checked, thumbnail made), sends it to a peer, who downloads it; a user outside the
# conversation is refused.
step_file_message() {
  local dir peer="${PEERS[0]}" stranger="${PEERS[1]}" sha body file_id status header headers=() url thumbnail
  dir="$(mktemp -d)"
  python3 - "$dir/photo.png" <<'PY'
import struct, sys, zlib
width, height = 64, 48
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
rows = b"".join(b"\x00" + bytes((200, 120, 40)) * width for _ in range(height))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
open(sys.argv[1], "wb").write(png)
PY
  sha="$(sha256sum "$dir/photo.png" | cut -d' ' -f1)"
  call POST /file/upload "{\"name\":\"photo.png\",\"content_type\":\"image/png\",\"size\":$(stat -c %s "$dir/photo.png"),\"sha256\":\"$sha\"}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "upload declared: a presigned URL and its headers" 'd["code"] == 200 and d["data"]["upload_url"].startswith("http")'
  file_id="$(json_get "$RESPONSE" 'd["data"]["file_id"]')"
  url="$(json_get "$RESPONSE" 'd["data"]["upload_url"]')"
  # the signed headers, but Content-Length: curl sends the file's own
  mapfile -t headers < <(json_get "$RESPONSE" \
    '"\n".join(k + ": " + v for k, v in d["data"]["upload_headers"].items() if k.lower() != "content-length")')
  local args=()
  for header in "${headers[@]}"; do
    [[ -z "$header" ]] || args+=(-H "$header")
  done
  echo "  PUT (object store) $file_id"
  status="$(curl -sS --max-time 20 -o "$dir/put.out" -w '%{http_code}' -X PUT "${args[@]}" \
    --data-binary "@$dir/photo.png" "$url")" || status="(curl failed)"
  RESPONSE="{\"status\": \"$status\"}"
  expect "the object store took the bytes" 'd["status"] == "200"'
  call POST /file/complete "{\"file_id\":$file_id}" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "completed: an image of 64x48" \
    'd["code"] == 200 and d["data"]["type"] == "image" and (d["data"]["width"], d["data"]["height"]) == (64, 48)'
  body="$(python3 -c 'import json, sys; print(json.dumps({"content_type": 1, "content": "", "type": 1,
    "targets": [int(sys.argv[2])], "attachment": json.dumps({"file_id": int(sys.argv[1])})}))' "$file_id" "$peer")"
  call POST /message/send "$body" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "image message sent" 'd["code"] == 200 and d["data"] is True'
  call GET "/message/conversation?opposite_id=$USER_ID&limit=1" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" \
    "user_id: $peer"
  expect "the peer's page shows the image's attachment" \
    "__import__('json').loads(d['data']['messages'][0]['attachment'])['file_id'] == $file_id and d['data']['messages'][0]['ctype'] == 'IMAGE'"
  call GET "/file/download?file_id=$file_id" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $peer"
  expect "the recipient gets a download URL and a thumbnail URL" 'd["code"] == 200 and d["data"]["thumbnail_url"]'
  url="$(json_get "$RESPONSE" 'd["data"]["url"]')"
  thumbnail="$(json_get "$RESPONSE" 'd["data"]["thumbnail_url"]')"
  echo "  GET (object store) $file_id"
  curl -sS --max-time 20 -o "$dir/downloaded.png" "$url" || true
  curl -sS --max-time 20 -o "$dir/thumbnail.png" "$thumbnail" || true
  RESPONSE="{\"same\": $([[ "$(sha256sum <"$dir/downloaded.png" | cut -d' ' -f1)" == "$sha" ]] && echo true || echo false),
    \"thumbnail\": $([[ "$(head -c 4 "$dir/thumbnail.png" | od -An -tx1 | tr -d ' \n')" == 89504e47 ]] && echo true || echo false)}"
  expect "the recipient downloaded the same bytes, and a PNG thumbnail" 'd["same"] and d["thumbnail"]'
  call GET "/file/download?file_id=$file_id" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $stranger"
  expect "a user outside the conversation gets 13006" 'd["code"] == 13006'
  rm -rf "$dir"
}

# ---- push (docs/push-certificates.md, docs/push-devices.md, docs/push-notify.md) ----------------------------

# poll_task TASK_ID EXPR: POST /push/task/detail every 0.2 s until EXPR holds on the answer (at most 15 s); the
# last answer lands in RESPONSE for the assertion that follows.
poll_task() {
  local deadline=$((SECONDS + 15)) polls=0
  while :; do
    RESPONSE="$(curl -sS --max-time 10 -X POST -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
      -H "Content-Type: application/json" --data "{\"list\":[$1]}" "$BASE_URL/push/task/detail")" \
      || RESPONSE="(curl failed)"
    polls=$((polls + 1))
    [[ "$(json_get "$RESPONSE" "bool($2)" 2>/dev/null)" != True && $SECONDS -lt $deadline ]] || break
    sleep 0.2
  done
  echo "  POST /push/task/detail ($polls polls)"
}

# notify AUDIENCE_JSON [SETTING_JSON]: POST /push/notify with the admin token, a short text message.
notify() {
  local setting="${2:-}"
  [[ -n "$setting" ]] || setting='{}'
  call POST /push/notify "{\"audience\":$1,\"setting\":$setting,\"message\":{\"title\":\"smoke\",\"body\":\"hi\"}}" \
    "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
}

# Exactly one target, on Xiaomi (the certificate's provider), expanded, then sent by push-worker.
ONE_XIAOMI='d["data"][0]["state"] == "done" and d["data"][0]["vendor_b_sent"] == 1 and [k for k, v in d["data"][0].items() if k.endswith("_target") and v] == ["vendor_b_target"] and d["data"][0]["vendor_b_target"] == 1'

step_push_enable_and_certificate() {
  call POST "/push/enable?value=true" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "push enabled for the app" 'd["code"] == 200 and d["data"] is True'
  call POST /push/certificate \
    '{"provider":3,"environment":1,"name":"mi-prod","app_id":"com.example.app","app_secret":"secret"}' \
    "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "Xiaomi certificate uploaded" 'd["code"] == 200 and d["data"] is True'
  call GET "/push/certificate?provider=3&environment=1" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "certificate read back, secret decrypted" \
    '(d["data"]["name"], d["data"]["app_id"], d["data"]["app_secret"]) == ("mi-prod", "com.example.app", "secret")'
  call GET "/push/certificate?provider=3&environment=1" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "a user token cannot read certificates (10010)" 'd["code"] == 10010'
}

# The device was registered with the token a moment ago: the bind works even before device.registered arrives.
step_push_registry() {
  PUSH_TAG="tag-$USERNAME"
  call POST /user/token/bind "{\"device_sn\":1,\"device_token\":\"mi-$USERNAME\",\"notifier_name\":\"mi-prod\"}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "Xiaomi token bound to device 1" 'd["code"] == 200 and d["data"] is True'
  call POST /user/push/tag "{\"tags\":[\"$PUSH_TAG\"]}" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "tag added" "d['code'] == 200 and d['data'] == ['$PUSH_TAG']"
  call POST /user/push/alias "{\"alias\":\"alias-$USERNAME\",\"push_token\":\"$PUSH_TOKEN\"}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "alias set on the device" 'd["code"] == 200 and d["data"] is True'
}

step_push_notify() {
  notify "{\"user_id\":[$USER_ID]}" "{\"request_id\":\"req-$USERNAME\"}"
  expect "push to the user accepted with a task_id" 'd["code"] == 200 and d["data"]["task_id"] > 0'
  TASK_ID="$(json_get "$RESPONSE" 'd["data"]["task_id"]')"
  poll_task "$TASK_ID" "$ONE_XIAOMI"
  expect "task $TASK_ID done, vendor_b_target 1 and sent 1, no other target" "$ONE_XIAOMI"
  notify "{\"user_id\":[$USER_ID]}" "{\"request_id\":\"req-$USERNAME\"}"
  expect "repeated request_id returns the same task_id" "d['code'] == 200 and d['data']['task_id'] == $TASK_ID"
  notify "{\"tag\":[\"$PUSH_TAG\"]}"
  expect "push to the tag accepted" 'd["code"] == 200 and d["data"]["task_id"] > 0'
  poll_task "$(json_get "$RESPONSE" 'd["data"]["task_id"]')" "$ONE_XIAOMI"
  expect "the tag reaches the user's device on Xiaomi" "$ONE_XIAOMI"
  notify "{\"alias\":[\"alias-$USERNAME\"]}"
  expect "push to the alias accepted" 'd["code"] == 200 and d["data"]["task_id"] > 0'
  poll_task "$(json_get "$RESPONSE" 'd["data"]["task_id"]')" "$ONE_XIAOMI"
  expect "the alias reaches the device on Xiaomi" "$ONE_XIAOMI"
}

# A device on each OS channel (bound to the demo app's certificates, which up.sh pointed at the provider
# simulators) plus one whose token the provider refuses: one push to all of them, then task/detail shows exactly one
# target and one sent per channel, the refused token is unbound, and the providers' delivery receipts arrive as
# received (not ios and cloud: APNs and FCM have no delivery callbacks).
step_push_every_channel() {
  local channel user token users=() expected
  OS_USERS=()
  for channel in ios cloud vendor_a vendor_c vendor_d vendor_e invalid; do
    call POST /user/register/v2 "{\"username\":\"${USERNAME}_$channel\",\"password\":\"$PASSWORD\"}" "app_id: $APP_ID"
    expect "user for $channel registered" 'd["code"] == 200'
    user="$(json_get "$RESPONSE" 'd["data"]["user_id"]')"
    users+=("$user")
    call POST /token/user "{\"name\":\"${USERNAME}_$channel\",\"password\":\"$PASSWORD\",\"device_guid\":\"phone-$channel\"}" \
      "app_id: $APP_ID"
    token="$(json_get "$RESPONSE" 'd["data"]["token"]')"
    if [[ "$channel" == invalid ]]; then
      # the simulators refuse tokens starting with "invalid" as unregistered (push-simulators Faults)
      call POST /user/token/bind "{\"device_sn\":1,\"device_token\":\"invalid-$USERNAME\",\"notifier_name\":\"demo-vendor_c\"}" \
        "app_id: $APP_ID" "access-token: $token"
    else
      call POST /user/token/bind "{\"device_sn\":1,\"device_token\":\"$channel-$USERNAME\",\"notifier_name\":\"demo-$channel\"}" \
        "app_id: $APP_ID" "access-token: $token"
    fi
    expect "$channel token bound" 'd["code"] == 200 and d["data"] is True'
    [[ "$channel" == invalid ]] || OS_USERS+=("$user")
  done
  notify "{\"user_id\":[$(IFS=,; echo "${users[*]}")]}" '{"distribution_strategy":"ospush_only"}'
  expect "push to the seven devices accepted" 'd["code"] == 200 and d["data"]["task_id"] > 0'
  TASK_ID="$(json_get "$RESPONSE" 'd["data"]["task_id"]')"
  expected='d["data"][0]["state"] == "done" and all(d["data"][0][c + "_target"] == 1 and d["data"][0][c + "_sent"] == 1 for c in ["ios", "cloud", "vendor_a", "vendor_d", "vendor_e"]) and (d["data"][0]["vendor_c_target"], d["data"][0]["vendor_c_sent"]) == (2, 1)'
  poll_task "$TASK_ID" "$expected"
  expect "task done: one sent per channel, the refused OPPO token not sent" "$expected"
  expected='all(d["data"][0][c + "_received"] == 1 for c in ["vendor_a", "vendor_c", "vendor_d", "vendor_e"]) and d["data"][0]["ios_received"] == d["data"][0]["cloud_received"] == 0'
  poll_task "$TASK_ID" "$expected"
  expect "the providers' delivery receipts counted as received" "$expected"
  notify "{\"user_id\":[${users[6]}]}" '{"distribution_strategy":"ospush_only"}'
  poll_task "$(json_get "$RESPONSE" 'd["data"]["task_id"]')" 'd["data"][0]["state"] == "done"'
  expect "the refused token was unbound: the device is no longer a target" \
    'sum(v for k, v in d["data"][0].items() if k.endswith("_target")) == 0'
}

# sim_requests CHANNEL N: the last N requests the channel's simulator received (its /_sim/requests), as JSON. The
# APNs simulator serves https with the local CA up.sh made.
sim_requests() {
  curl -sS --max-time 10 --cacert "$LOCAL/simulators/apns-ca.pem" "$(simulator_url "$1")/_sim/requests?limit=$2"
}

# notify_message AUDIENCE_JSON MESSAGE_JSON: an ospush_only push of that message; waits until its task is final.
notify_message() {
  call POST /push/notify "{\"audience\":$1,\"setting\":{\"distribution_strategy\":\"ospush_only\"},\"message\":$2}" \
    "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "push accepted" 'd["code"] == 200 and d["data"]["task_id"] > 0'
  TASK_ID="$(json_get "$RESPONSE" 'd["data"]["task_id"]')"
  poll_task "$TASK_ID" 'd["data"][0]["state"] in ("done", "expired", "failed")'
}

# The providers' own rules (docs/channels/*.md): a push with only a title and one with only a body end sent on all
# seven OS channels (each phone maker gets the text it requires); every phone-maker request carries its message
# category; a Huawei badge stays within 1..99 / 0..99.
step_push_message_shapes() {
  local message channel seven
  seven="$(IFS=,; echo "${OS_USERS[*]},$USER_ID")"
  for message in '{"title":"only a title","body":""}' '{"title":"","body":"only a body"}'; do
    notify_message "{\"user_id\":[$seven]}" "$message"
    expect "$message: sent on all seven OS channels" \
      'd["data"][0]["state"] == "done" and all(d["data"][0][c + "_target"] == 1 and d["data"][0][c + "_sent"] == 1 for c in ["ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e"])'
  done
  # Xiaomi's category is the app's registered private-message channel (its console's 消息分类管理; the simulator's
  # /_sim/channels): set per push here (or per certificate, message_defaults)
  curl -sS --max-time 10 -H "Content-Type: application/json" \
    --data '{"app_id":"com.example.app","channel_id":"smoke-private","private":true}' \
    "$(simulator_url vendor_b)/_sim/channels" >/dev/null
  notify_message "{\"user_id\":[$seven]}" \
    '{"title":"badge","body":"past 99","badge":"150","vendor_a":{"badge_class":"com.example.Main"},"vendor_b":{"channel_id":"smoke-private"}}'
  expect "the badge push is sent on all seven OS channels" \
    'd["data"][0]["state"] == "done" and sum(d["data"][0][c + "_sent"] for c in ["ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e"]) == 7'
  RESPONSE="$(sim_requests vendor_a 1)"
  expect "Huawei: badge set_num within 0..99 and android.category sent" \
    'any((lambda m: m["android"]["notification"]["badge"].get("set_num", m["android"]["notification"]["badge"].get("add_num", 0)) <= 99 and "category" in m["android"])(__import__("json").loads(r["body"])["message"]) for r in d["requests"])'
  for channel in vendor_b vendor_c vendor_d vendor_e; do
    RESPONSE="$(sim_requests "$channel" 3)"
    case "$channel" in
      vendor_b) expect "Xiaomi: the request names the notification channel (extra.channel_id)" \
        'any("extra.channel_id=smoke-private" in r["body"] for r in d["requests"])' ;;
      vendor_c) expect "OPPO: category and notify_level sent" \
        'any("category" in r["body"] and "notify_level" in r["body"] for r in d["requests"])' ;;
      vendor_d) expect "vivo: category sent" 'any("category" in r["body"] for r in d["requests"])' ;;
      vendor_e) expect "Meizu: noticeMsgType sent" 'any("noticeMsgType" in r["body"] for r in d["requests"])' ;;
    esac
  done
}

# Meizu takes at most 100 pushIds per request since 2023-08-21 (MEIZUPUSH/PushAPI): a push to 150 Meizu devices
# goes out in requests of at most 100 and reaches each device once.
step_push_meizu_150() {
  local i names=() users
  for i in $(seq 1 150); do
    names+=("{\"username\":\"${USERNAME}_mz$i\",\"password\":\"$PASSWORD\"}")
  done
  for i in 0 75; do
    call POST /user/register/batch "{\"list\":[$(IFS=,; echo "${names[*]:$i:75}")]}" \
      "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
    expect "75 users registered" 'd["code"] == 200'
  done
  curl -sS --max-time 10 -X POST "$(simulator_url vendor_e)/_sim/reset" >/dev/null
  # each user logs in from a phone and binds its Meizu pushId (one process for the 300 calls)
  users="$(python3 - "$BASE_URL" "$APP_ID" "${USERNAME}_mz" "$PASSWORD" "mz-$USERNAME-" <<'PY'
import json, sys, urllib.request
base, app, name, password, token_prefix = sys.argv[1:]
def post(path, body, **headers):
    request = urllib.request.Request(base + path, json.dumps(body).encode(),
                                     {"app_id": app, "Content-Type": "application/json", **headers})
    answer = json.load(urllib.request.urlopen(request, timeout=20))
    if answer["code"] != 200:
        sys.exit(f"{path}: {answer}")
    return answer["data"]
users = []
for i in range(1, 151):
    login = post("/token/user", {"name": f"{name}{i}", "password": password, "device_guid": f"meizu-{i}"})
    post("/user/token/bind", {"device_sn": 1, "device_token": f"{token_prefix}{i}", "notifier_name": "demo-vendor_e"},
         **{"access-token": login["token"]})
    users.append(str(login["user_id"]))
print(",".join(users))
PY
  )" || { RESPONSE="$users"; expect "150 logins and Meizu token binds" 'False'; }
  echo "  150 users logged in, a Meizu token bound to each"
  notify_message "{\"user_id\":[$users]}" '{"title":"to 150","body":"Meizu devices"}'
  expect "150 Meizu targets, all sent" \
    'd["data"][0]["state"] == "done" and (d["data"][0]["vendor_e_target"], d["data"][0]["vendor_e_sent"]) == (150, 150)'
  RESPONSE="$(sim_requests vendor_e 20)"
  expect "Meizu got requests of at most 100 pushIds, 150 distinct in all" \
    '(lambda sends: max(len(s) for s in sends) <= 100 and len(set(sum(sends, []))) == 150)([__import__("urllib.parse", fromlist=["x"]).parse_qs(r["body"])["pushIds"][0].split(",") for r in d["requests"] if r["path"].endswith("pushByPushId")])'
}

# svcpush end to end: a device connected to /ws (deploy/local/ws_device.py) gets the notification frame from
# push-worker through message-service and acknowledges it: sent and received on svcpush. push-service learns the
# device is online from presence.events, so the push is repeated (svcpush_only) until it is routed to svcpush.
step_push_svcpush() {
  local out="$LOCAL/smoke-ws-device.out" attempt routed='d["data"][0]["state"] == "done"'
  "$HERE/ws_device.py" "$BASE_URL" "$APP_ID" "$USER_TOKEN" 1 40 >"$out" 2>&1 &
  local device=$!
  local deadline=$((SECONDS + 15))
  until grep -q connected "$out"; do
    ((SECONDS < deadline)) && kill -0 "$device" 2>/dev/null || { cat "$out" >&2; break; }
    sleep 0.2
  done
  for attempt in $(seq 1 20); do
    notify "{\"user_id\":[$USER_ID]}" '{"distribution_strategy":"svcpush_only"}'
    TASK_ID="$(json_get "$RESPONSE" 'd["data"]["task_id"]')"
    poll_task "$TASK_ID" "$routed"
    [[ "$(json_get "$RESPONSE" 'd["data"][0]["svcpush_target"]')" == 1 ]] && break
    sleep 0.5
  done
  expected='d["data"][0]["state"] == "done" and (d["data"][0]["svcpush_target"], d["data"][0]["svcpush_sent"]) == (1, 1)'
  expect "svcpush task $TASK_ID done: target 1, sent 1 (after $attempt attempts)" "$expected"
  wait "$device" || true
  RESPONSE="$(sed -n 2p "$out")" # after "connected"
  expect "the device got the notification frame" "d['type'] == 'notification' and d['task_id'] == $TASK_ID and d['notification']['title'] == 'smoke'"
  poll_task "$TASK_ID" 'd["data"][0]["svcpush_received"] == 1'
  expect "its notification_ack counted as received" 'd["data"][0]["svcpush_received"] == 1'
}

step_push_disabled() {
  call POST "/push/enable?value=false" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "push disabled for the app" 'd["code"] == 200'
  notify "{\"user_id\":[$USER_ID]}"
  expect "notify while disabled gets 12006" 'd["code"] == 12006'
  call POST "/push/enable?value=true" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "push enabled again" 'd["code"] == 200'
}

# POST /user/push?value=true opts the user OUT (docs/push-devices.md).
step_push_opt_out() {
  call POST "/user/push?value=true" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "user opted out" 'd["code"] == 200'
  call GET /user/push "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "push_disabled is true" 'd["code"] == 200 and d["data"]["push_disabled"] is True'
  notify "{\"user_id\":[$USER_ID]}"
  expect "push to the opted-out user accepted" 'd["code"] == 200 and d["data"]["task_id"] > 0'
  poll_task "$(json_get "$RESPONSE" 'd["data"]["task_id"]')" 'd["data"][0]["state"] == "done"'
  expect "task done with zero targets" \
    'd["data"][0]["state"] == "done" and sum(v for k, v in d["data"][0].items() if k.endswith("_target")) == 0'
  call POST "/user/push?value=false" "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "user opted back in" 'd["code"] == 200'
  call GET /user/push "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "push_disabled is false" 'd["code"] == 200 and d["data"]["push_disabled"] is False'
}

# ---- webhooks (docs/webhooks.md) ------------------------------------------------------------------------------

# webhook_settings BODY: saves the demo app's webhook and gives the new secret to the receiver (each save rotates it).
webhook_settings() {
  call POST /app/webhook "$1" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "webhook saved, a whsec_ secret answered" 'd["code"] == 200 and d["data"]["secret"].startswith("whsec_")'
  curl -fsS --max-time 5 -X POST -H 'Content-Type: application/json' \
    --data "{\"secret\":\"$(json_get "$RESPONSE" 'd["data"]["secret"]')\"}" "$WEBHOOK_RECEIVER_URL/_sim/secret" >/dev/null
}

# received_until TYPE PYEXPR: polls the demo receiver's events of TYPE (a list, newest last) until PYEXPR holds on
# it, or 20 s; the list lands in RESPONSE.
received_until() {
  local deadline=$((SECONDS + 20))
  while :; do
    RESPONSE="$(curl -sS --max-time 5 "$WEBHOOK_RECEIVER_URL/_sim/received?type=$1")" || RESPONSE="(curl failed)"
    [[ "$(json_get "$RESPONSE" "bool($2)" 2>/dev/null)" == True ]] && return
    ((SECONDS < deadline)) || return 0
    sleep 0.3
  done
}

# A send through the gateway reaches the demo app's receiver as a signed message.created (up.sh pointed the demo
# app at it); with before_send on, the send asks the receiver first (a signed message.before_send, allowed).
step_webhook() {
  local marker="webhook smoke $RANDOM$RANDOM" url="$WEBHOOK_RECEIVER_URL/demo"
  webhook_settings "{\"url\":\"$url\",\"events\":[\"*\"],\"before_send\":true}"
  call GET /app/webhook "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "the settings read back, secret masked" \
    "d['data']['url'] == '$url' and d['data']['before_send'] and d['data']['secret'].startswith('whsec_****')"
  call POST /message/send "{\"content_type\":0,\"content\":\"$marker\",\"targets\":[${PEERS[0]}],\"type\":1}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "the send allowed by the hook" 'd["code"] == 200 and d["data"] is True'
  received_until message.before_send "any(e['verified'] and '$marker' in e['body'] for e in d)"
  expect "the receiver was asked first, signature verified" \
    "any(e['verified'] and '$marker' in e['body'] for e in d)"
  received_until message.created "any(e['verified'] and '$marker' in e['body'] for e in d)"
  expect "message.created arrived at the receiver, signature verified" \
    "any(e['verified'] and '$marker' in e['body'] for e in d)"
  call GET /app/webhook/deliveries "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "the delivery log shows it delivered" \
    "any(x['type'] == 'message.created' and x['state'] == 'delivered' and x['last_status'] == 200 for x in d['data'])"
  call POST /app/webhook "{\"url\":\"http://169.254.169.254/latest\"}" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "a metadata address is refused" 'd["code"] == 10002 and d["message"].startswith("url:")'
  # back to the demo app's settings of up.sh: events only, no hook on the demo app's sends
  webhook_settings "{\"url\":\"$url\",\"events\":[\"*\"]}"
}

# ---- offline push of chat messages (docs/offline-push.md) ------------------------------------------------------

# smoke_user NAME CHANNEL: registers NAME, logs its phone in (device_sn 1) and binds a CHANNEL token ("" for none);
# sets U_ID, U_TOKEN and U_PROVIDER_TOKEN.
smoke_user() {
  call POST /user/register/v2 "{\"username\":\"${USERNAME}_$1\",\"password\":\"$PASSWORD\"}" "app_id: $APP_ID"
  expect "$1 registered" 'd["code"] == 200'
  U_ID="$(json_get "$RESPONSE" 'd["data"]["user_id"]')"
  call POST /token/user "{\"name\":\"${USERNAME}_$1\",\"password\":\"$PASSWORD\",\"device_guid\":\"phone-$1\"}" \
    "app_id: $APP_ID"
  U_TOKEN="$(json_get "$RESPONSE" 'd["data"]["token"]')"
  U_PROVIDER_TOKEN="$2-$1-$USERNAME"
  if [[ -n "$2" ]]; then
    call POST /user/token/bind "{\"device_sn\":1,\"device_token\":\"$U_PROVIDER_TOKEN\",\"notifier_name\":\"demo-$2\"}" \
      "app_id: $APP_ID" "access-token: $U_TOKEN"
    expect "$1's $2 token bound" 'd["code"] == 200'
  fi
}

# send_as SENDER BODY: a message from SENDER (admin acting as the user); sets MSG_ID to the conversation's newest
# message as the sender sees it (the answer of /message/send is only true).
send_as() {
  call POST /message/send "$2" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $1"
  expect "message sent" 'd["code"] == 200 and d["data"] is True'
  local opposite
  opposite="$(json_get "$2" 'd["targets"][0]')"
  call GET "/message/conversation?opposite_id=$opposite&limit=1" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" \
    "user_id: $1"
  MSG_ID="$(json_get "$RESPONSE" 'd["data"]["messages"][-1]["msg_id"]')"
}

# trace_until MSG_ID PYEXPR: polls the message's offline push trace (admin) until PYEXPR holds on it, or 20 s.
trace_until() {
  local deadline=$((SECONDS + 20))
  while :; do
    RESPONSE="$(curl -sS --max-time 10 -H "app_id: $APP_ID" -H "access-token: $ADMIN_TOKEN" \
      "$BASE_URL/push/offline/trace?msg_id=$1")"
    [[ "$(json_get "$RESPONSE" "bool($2)" 2>/dev/null)" == True ]] && return
    ((SECONDS < deadline)) || return 0
    sleep 0.3
  done
}

# a device of user U in the trace: {"decision", "state", ...}
DEVICE='(lambda u: next((x for x in d["data"]["devices"] if x["user_id"] == u), {}))'

step_offline_push() {
  local sender sender_token huawei ios live live_token out device group
  # vivo: step push_enable_and_certificate replaced the demo's Xiaomi certificate by mi-prod
  smoke_user op_sender vendor_d
  sender="$U_ID" sender_token="$U_PROVIDER_TOKEN"
  call POST /user/push/settings '{"display_name":"Smoke Sender"}' "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" \
    "user_id: $sender"
  expect "the sender's display name set" 'd["code"] == 200 and d["data"]["display_name"] == "Smoke Sender"'
  smoke_user op_huawei vendor_a
  huawei="$U_ID"
  smoke_user op_ios ios
  ios="$U_ID"
  smoke_user op_live vendor_c
  live="$U_ID" live_token="$U_TOKEN"

  # 1:1 to a phone with no live connection: the Huawei simulator gets sender, preview and the IM category
  send_as "$sender" "{\"content_type\":0,\"content\":\"offline hello $USERNAME\",\"targets\":[$huawei],\"type\":1}"
  trace_until "$MSG_ID" "$DEVICE($huawei).get('state') == 'sent'"
  expect "the offline phone's trace: offline push on Huawei, sent" \
    "$DEVICE($huawei).get('decision') == 'offline_push' and $DEVICE($huawei)['channel'] == 'vendor_a' and $DEVICE($huawei)['state'] == 'sent'"
  expect "the sender's own phone is not a recipient" "$DEVICE($sender) == {}"
  RESPONSE="$(sim_requests vendor_a 5)"
  expect "Huawei got title = the sender's name, body = the text, category IM, the conversation in data" \
    "any((lambda m: m['android'].get('notification', {}).get('title') == 'Smoke Sender' and m['android']['notification'].get('body') == 'offline hello $USERNAME' and m['android'].get('category') == 'IM' and '\"conversation_id\":\"$sender\"' in m.get('data', ''))(__import__('json').loads(r['body'])['message']) for r in d['requests'] if 'messages:send' in r['path'])"

  # the badge is the recipient's unread count: two messages to the iPhone, the second shows 2
  send_as "$sender" "{\"content_type\":0,\"content\":\"one\",\"targets\":[$ios],\"type\":1}"
  send_as "$sender" "{\"content_type\":1,\"content\":\"{}\",\"targets\":[$ios],\"type\":1}"
  trace_until "$MSG_ID" "$DEVICE($ios).get('state') in ('sent', 'superseded')"
  RESPONSE="$(sim_requests ios 5)"
  expect "APNs got the image placeholder with badge 2 and the conversation as thread-id" \
    "any((lambda b: b['aps'].get('badge') == 2 and b['aps']['alert'].get('body') == '[Image]' and b['aps'].get('thread-id') == 'u:$sender')(__import__('json').loads(r['body'])) for r in d['requests'])"

  # a connected phone that acknowledges gets the message live and no OS notification
  out="$LOCAL/smoke-ws-live.out"
  "$HERE/ws_device.py" "$BASE_URL" "$APP_ID" "$live_token" 1 30 message >"$out" 2>&1 &
  device=$!
  local deadline=$((SECONDS + 15))
  until grep -q connected "$out"; do
    ((SECONDS < deadline)) && kill -0 "$device" 2>/dev/null || { cat "$out" >&2; break; }
    sleep 0.2
  done
  sleep 1 # presence reaches message-service's table at once; this only leaves room for a slow start
  send_as "$sender" "{\"content_type\":0,\"content\":\"live hello\",\"targets\":[$live],\"type\":1}"
  wait "$device" || true
  RESPONSE="$(sed -n 2p "$out")"
  expect "the connected phone got the message frame" "d['type'] == 'message' and d['message']['content'] == 'live hello'"
  sleep 4 # past the ack window (3 s)
  trace_until "$MSG_ID" "$DEVICE($live) != {}"
  expect "the acknowledged live phone: decision live, nothing sent" \
    "$DEVICE($live)['decision'] == 'live' and $DEVICE($live)['state'] == 'decided'"

  # muted, do-not-disturb, preview off
  call POST /user/push/mute "{\"conversation_id\":$sender}" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $huawei"
  expect "the conversation muted" 'd["code"] == 200 and d["data"] is True'
  send_as "$sender" "{\"content_type\":0,\"content\":\"muted\",\"targets\":[$huawei],\"type\":1}"
  trace_until "$MSG_ID" "$DEVICE($huawei) != {}"
  expect "muted: decided, not sent" "$DEVICE($huawei)['decision'] == 'muted'"
  call POST /user/push/mute "{\"conversation_id\":$sender,\"mute\":false}" "app_id: $APP_ID" \
    "access-token: $ADMIN_TOKEN" "user_id: $huawei"
  local from to
  from="$(date -u -d '-1 hour' +%H:%M)" to="$(date -u -d '+1 hour' +%H:%M)"
  call POST /user/push/settings "{\"dnd_start\":\"$from\",\"dnd_end\":\"$to\",\"time_zone\":\"UTC\"}" \
    "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $huawei"
  expect "quiet hours set" 'd["code"] == 200'
  send_as "$sender" "{\"content_type\":0,\"content\":\"at night\",\"targets\":[$huawei],\"type\":1}"
  trace_until "$MSG_ID" "$DEVICE($huawei) != {}"
  expect "do not disturb: decided, not sent" "$DEVICE($huawei)['decision'] == 'do_not_disturb'"
  call POST /user/push/settings '{"show_preview":false}' "app_id: $APP_ID" "access-token: $ADMIN_TOKEN" "user_id: $huawei"
  send_as "$sender" "{\"content_type\":0,\"content\":\"secret\",\"targets\":[$huawei],\"type\":1}"
  trace_until "$MSG_ID" "$DEVICE($huawei).get('state') == 'sent'"
  RESPONSE="$(sim_requests vendor_a 3)"
  expect "preview off: Huawei got 'New message' without the text" \
    "any((lambda m: m['android'].get('notification', {}).get('title') == 'New message' and 'secret' not in r['body'])(__import__('json').loads(r['body'])['message']) for r in d['requests'] if 'messages:send' in r['path'])"

  # a group message reaches every offline member, not the sender
  call POST /group/create "{\"name\":\"smoke group\",\"user_list\":[$huawei,$ios]}" "app_id: $APP_ID" \
    "access-token: $ADMIN_TOKEN" "user_id: $sender"
  group="$(json_get "$RESPONSE" 'd["data"]["group_id"]')"
  send_as "$sender" "{\"content_type\":0,\"content\":\"hello group\",\"targets\":[$group],\"type\":2}"
  trace_until "$MSG_ID" "all($DEVICE(u).get('state') == 'sent' for u in ($huawei, $ios))"
  expect "the group message was sent to both offline members, not to the sender" \
    "all($DEVICE(u).get('state') == 'sent' for u in ($huawei, $ios)) and $DEVICE($sender) == {}"
  RESPONSE="$(curl -sS --max-time 10 "$(simulator_url vendor_d)/_sim/requests?limit=200")"
  expect "the sender's own phone (vivo) got nothing" "'$sender_token' not in json.dumps(d)"
  call GET "/push/offline/stats?days=1" "" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "the day's offline pushes are counted" 'd["code"] == 200 and sum(r["sent"] for r in d["data"]) >= 5'
}

# socket_closed_by TOKEN NAME COMMAND...: a device connected to /ws with TOKEN; COMMAND kills its credentials; the
# server must close the socket with 4403 within 2 s of COMMAND's start (docs/live-protocol.md "When credentials die").
socket_closed_by() {
  local token="$1" name="$2" out="$LOCAL/smoke-ws-$2.out" pid started closed_at
  shift 2
  "$HERE/ws_device.py" "$BASE_URL" "$APP_ID" "$token" 1 30 close >"$out" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q '^connected' "$out" && break; sleep 0.1; done
  started="$(date +%s.%N)"
  "$@"
  wait "$pid" || true
  RESPONSE="$(grep '^closed' "$out" | head -1)"
  echo "  ws device: ${RESPONSE:-$(tail -1 "$out")}"
  closed_at="$(awk '{print $NF}' <<<"$RESPONSE")"
  [[ -n "$closed_at" ]] || closed_at=0
  if [[ "$RESPONSE" == "closed 4403 "* ]] && awk -v a="$started" -v b="$closed_at" 'BEGIN { exit !(b - a < 2) }'; then
    passed=$((passed + 1))
    echo "    ok: the socket closed with 4403 within 2 s of the $name ($(awk -v a="$started" -v b="$closed_at" \
      'BEGIN { printf "%.2f", b - a }') s)"
  else
    failed=$((failed + 1))
    echo "    FAILED: the socket closed with 4403 within 2 s of the $name (started at $started): $(cat "$out")" >&2
    exit 1
  fi
}

change_password() {
  call POST /user/change_password "{\"old_password\":\"$PASSWORD\",\"new_password\":\"new-secret-2\"}" \
    "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "password changed" 'd["code"] == 200'
}

disable_user() {
  call PUT /user/disable "{\"list\":[$1]}" "app_id: $APP_ID" "access-token: $ADMIN_TOKEN"
  expect "user $1 disabled" 'd["code"] == 200'
}

step_password_change_revokes() {
  socket_closed_by "$USER_TOKEN" "password change" change_password
  call GET /user/device/list "" "app_id: $APP_ID" "access-token: $USER_TOKEN"
  expect "old token revoked (10008)" 'd["code"] == 10008'
  PASSWORD="new-secret-2"
}

step_disable_closes_socket() {
  smoke_user disabled ""
  socket_closed_by "$U_TOKEN" "disable" disable_user "$U_ID"
}

step_wrong_password() {
  call POST /token/user "{\"name\":\"$USERNAME\",\"password\":\"wrong-pass-1\"}" "app_id: $APP_ID"
  expect "login refused with 10013" 'd["code"] == 10013'
}

# guess_logins MAX APP NAME_FORMAT PASSWORD_FORMAT FORGED_PREFIX: up to MAX wrong logins (%s = the try's number),
# each with a forged X-Forwarded-For; FIRST = the try answered 10015, 0 if none was.
guess_logins() {
  local i
  FIRST=0
  for i in $(seq 1 "$1"); do
    # shellcheck disable=SC2059 # the formats are this script's own
    call POST /token/login "{\"login_name\":\"$(printf "$3" "$i")\",\"password\":\"$(printf "$4" "$i")\"}" \
      "app_id: $2" "X-Forwarded-For: $5.$i"
    if [[ "$(json_get "$RESPONSE" 'd["code"]')" == 10015 ]]; then FIRST=$i; return; fi
  done
}

# Password guessing through the gateway (docs/throttling.md), in an app of its own so that reruns start afresh:
# 10015 comes well before the 20th wrong password, a forged X-Forwarded-For does not hide the guesser's address,
# and the owner logs in after the wait the answer names.
step_password_guessing_throttled() {
  local app name wait
  call POST /app/create '{"name":"smoke-throttle"}' "platform-key: $PLATFORM_KEY"
  expect "throttle test app created" 'd["code"] == 200'
  app="$(json_get "$RESPONSE" 'd["data"]["app_id"]')"
  name="guessed_$RANDOM"
  call POST /user/register/v2 "{\"username\":\"$name\",\"password\":\"$PASSWORD\"}" "app_id: $app"
  expect "owner registered" 'd["code"] == 200'
  guess_logins 19 "$app" "$name" "guess-%s" 203.0.113
  expect "10015 before the 20th wrong password (at try $FIRST)" "$FIRST > 0 and 'retry after' in d['message']"
  wait="$(json_get "$RESPONSE" 'd["message"].split("retry after ")[1].split(" ")[0]')"
  echo "  waiting the $wait s the answer names"
  sleep "$wait"
  call POST /token/login "{\"login_name\":\"$name\",\"password\":\"$PASSWORD\"}" "app_id: $app"
  expect "the owner logs in after the wait" 'd["code"] == 200'
  # one address guessing many names, each call claiming another address: the per-address limit still holds
  guess_logins 25 "$app" "nobody_${RANDOM}_%s" 123456 198.51.100
  expect "a forged X-Forwarded-For does not escape the per-address limit (10015 at try $FIRST)" "$FIRST > 0"
}

step_unknown_path() {
  local path
  # the services' own surfaces are not routed either: they are reached on the services' ports only
  for path in /nope /q/metrics /q/openapi /q/swagger-ui /q/health/ready /internal/identity /internal/live/notify; do
    call GET "$path"
    expect "$path gets 10002" 'd["code"] == 10002'
  done
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

# The console's sign-in page, through the gateway (its pages are tested in a browser: console ConsoleBrowserIT).
step_console_sign_in() {
  local page status form=false
  echo "  GET /console/sign-in"
  page="$(curl -sS --max-time 10 -w '\n%{http_code}' "$BASE_URL/console/sign-in")" || page="(curl failed)"
  status="${page##*$'\n'}"
  ! grep -q 'id="admin-sign-in"' <<<"$page" || form=true
  RESPONSE="{\"status\": \"$status\", \"form\": $form}"
  expect "the console's sign-in page answers through the gateway" 'd["status"] == "200" and d["form"]'
}

# The local Prometheus (up.sh) scrapes every component, and after the traffic above holds every series the alert
# rules and dashboards use (deploy/monitoring/series.txt): a renamed or vanished metric fails here, not on call.
step_monitoring_series() {
  local deadline=$((SECONDS + 60)) report
  while :; do
    report="$(python3 - "$PROMETHEUS_URL" "$ROOT/deploy/monitoring/series.txt" <<'EOF'
import json, sys, urllib.parse, urllib.request
url, listed = sys.argv[1], sys.argv[2]
def query(q):
    with urllib.request.urlopen(url + "/api/v1/query?query=" + urllib.parse.quote(q), timeout=10) as r:
        return json.load(r)["data"]["result"]
jobs = {r["metric"]["job"]: r["value"][1] for r in query("up")}
wanted = ["auth-service", "message-service", "push-service", "push-worker", "gateway", "postgres", "prometheus"]
down = [j for j in wanted if jobs.get(j) != "1"]
names = [l.split()[0] for l in open(listed) if l.strip() and not l.startswith("#")]
missing = [n for n in names if not query('count({__name__="%s"})' % n)]
print(json.dumps({"down": down, "missing": missing, "series": len(names)}))
EOF
)" || report='{"down": ["(Prometheus unreachable)"], "missing": []}'
    [[ "$report" != *'"down": []'*'"missing": []'* && $SECONDS -lt $deadline ]] || break
    sleep 5
  done
  echo "  Prometheus $PROMETHEUS_URL: $report"
  RESPONSE="$report"
  expect "Prometheus scrapes every component" 'd["down"] == []'
  expect "Prometheus holds every series the rules and dashboards use" 'd["missing"] == []'
}

# The console's System page, signed in as the operator, draws the last hour per channel from the local Prometheus
# (its charts' data come from Prometheus's query_range: PrometheusHistory); the pushes above put sends in it.
step_console_system_history() {
  local jar csrf page unavailable deadline=$((SECONDS + 90)) drawn=false
  jar="$(mktemp)"
  csrf="$(curl -sS --max-time 10 -c "$jar" "$BASE_URL/console/sign-in" | grep -o 'name="csrf" value="[^"]*"' | head -n 1 \
    | sed 's/.*value="//; s/"$//')"
  echo "  POST /console/sign-in (operator)"
  curl -sS --max-time 10 -b "$jar" -c "$jar" -o /dev/null --data-urlencode "csrf=$csrf" --data-urlencode kind=operator \
    --data-urlencode "platform_key=$PLATFORM_KEY" "$BASE_URL/console/sign-in"
  while :; do
    echo "  GET /console/system"
    page="$(curl -sS --max-time 20 -b "$jar" "$BASE_URL/console/system")" || page=""
    # a chart of sends holds a series per channel once Prometheus has a rate for them (one point a minute)
    if grep -o 'id="history-sent"[^>]*' <<<"$page" | grep -q '&quot;label&quot;'; then
      drawn=true
      break
    fi
    ((SECONDS < deadline)) || break
    sleep 10
  done
  rm -f "$jar"
  unavailable="$(grep -c 'id="history-unavailable"' <<<"$page" || true)"
  RESPONSE="{\"drawn\": $drawn, \"unavailable\": ${unavailable:-0}}"
  expect "the System page draws the last hour's sends per channel from Prometheus" 'd["drawn"] and d["unavailable"] == 0'
}

# The Kubernetes Ingress's error backend (deploy/k8s/base/error-backend/default.conf), run by this machine's nginx:
# the statuses ingress-nginx raises itself, and the paths no route matches, come back as the envelope the local
# gateway gives for them.
step_ingress_error_backend() {
  local dir port code expected pid
  dir="$(mktemp -d)"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  mkdir -p "$dir/tmp"
  sed "s/listen 8080;/listen 127.0.0.1:$port;/" "$HERE/../k8s/base/error-backend/default.conf" >"$dir/default.conf"
  printf 'daemon off;\npid %s/nginx.pid;\nevents {}\nhttp {\n  client_body_temp_path %s/tmp;\n  include %s/default.conf;\n}\n' \
    "$dir" "$dir" "$dir" >"$dir/nginx.conf"
  nginx -p "$dir/" -e "$dir/error.log" -c "$dir/nginx.conf" &
  pid=$!
  for code in 502 503 504 413; do
    expected=50003
    [[ "$code" != 413 ]] || expected=10002
    echo "  GET error-backend X-Code: $code"
    RESPONSE="$(curl -sS --max-time 5 --retry 10 --retry-connrefused --retry-delay 0 -H "X-Code: $code" \
      -H 'X-Original-URI: /message/send' "http://127.0.0.1:$port/")" || RESPONSE="(curl failed)"
    expect "ingress error $code answers the envelope $expected" "d['code'] == $expected and 'data' in d and d['message']"
  done
  # as the Ingress's defaultBackend: an unmatched path (/q/*, /internal/* among them) comes without X-Code
  echo "  GET error-backend /q/metrics without X-Code"
  RESPONSE="$(curl -sS --max-time 5 "http://127.0.0.1:$port/q/metrics")" || RESPONSE="(curl failed)"
  expect "an unmatched path on the Ingress answers 10002" "d['code'] == 10002 and d['message'] == 'no such endpoint'"
  kill "$pid"
  wait "$pid" || true
  rm -rf "$dir"
}

STEPS=(stack_up register_user user_token device_list admin_acts_as_user message_to_just_registered
  conversation_and_receipt group group_receipts recall_and_edit sync file_message push_enable_and_certificate push_registry push_notify push_every_channel
  push_message_shapes push_meizu_150 push_svcpush push_disabled push_opt_out offline_push webhook
  password_change_revokes disable_closes_socket wrong_password password_guessing_throttled unknown_path health console_sign_in
  ingress_error_backend monitoring_series console_system_history)

for step in "${STEPS[@]}"; do
  echo "smoke: $step"
  "step_$step"
done

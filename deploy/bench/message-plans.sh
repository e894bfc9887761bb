#!/usr/bin/env bash
# Query plans of message-service's hot queries on a realistic volume (docs/message-storage.md shows the output).
# Loads the real migration into a scratch schema "plans" of the local stack's message database, fills it with
# 100,000 users' worth of data (200,000 direct conversations with 10 messages each, a 500-member group with 20,000
# messages, 2,000 connected devices), prints EXPLAIN (ANALYZE) of each query, then drops the schema.
# Usage: deploy/bench/message-plans.sh   (needs the local stack's PostgreSQL: deploy/local/up.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PG_PORT="${PG_PORT:-15432}"
export PGPASSWORD=message
psql_plans() {
  psql -h 127.0.0.1 -p "$PG_PORT" -U message -d message -v ON_ERROR_STOP=1 -q "$@"
}

psql_plans -c "drop schema if exists plans cascade" -c "create schema plans"
trap 'psql_plans -c "drop schema if exists plans cascade" >/dev/null' EXIT
{
  echo "set search_path = plans;"
  cat "$ROOT/message-service/src/main/resources/db/migration/V1__conversations_messages_groups.sql"
} | psql_plans >/dev/null

psql_plans <<'SQL' >/dev/null
set search_path = plans;
-- 200,000 direct conversations between users 10000..109999, 10 messages each
insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id, last_at)
select 'app', 1, 10000 + (i % 100000), 110000 + i, 10, 0, now() - make_interval(secs => i)
from generate_series(1, 200000) i;
insert into messages (conversation_id, msg_id, seq, sender_id, target_id, content_type, content, created_ms)
select c.id, nextval('msg_ids'), s, c.low_id, c.high_id, 0, 'message ' || s, 0
from conversations c, generate_series(1, 10) s;
update conversations c set last_msg_id = m.max_id from (select conversation_id, max(msg_id) max_id from messages
  group by conversation_id) m where m.conversation_id = c.id;
insert into conversation_members (conversation_id, user_id, app_id, peer_id, read_seq)
select id, low_id, app_id, high_id, 5 from conversations
union all select id, high_id, app_id, low_id, 0 from conversations;
-- a 500-member group with 20,000 messages
insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id, last_at)
values ('app', 2, 1000000000000, 0, 20000, 0, now());
insert into groups (app_id, group_id, conversation_id, name) select 'app', 1000000000000, id, 'big' from conversations
where kind = 2;
insert into conversation_members (conversation_id, user_id, app_id, peer_id)
select c.id, 10000 + u, 'app', 1000000000000 from conversations c, generate_series(0, 499) u where c.kind = 2;
insert into messages (conversation_id, msg_id, seq, sender_id, target_id, content_type, content, created_ms)
select c.id, nextval('msg_ids'), s, 10000, 1000000000000, 0, 'group ' || s, 0
from conversations c, generate_series(1, 20000) s where c.kind = 2;
-- 2,000 connected devices on two replicas
insert into replicas values ('r1', now()), ('r2', now());
insert into presence (app_id, user_id, device_sn, replica_id, connection_id)
select 'app', 10000 + i * 7, 1, case when i % 2 = 0 then 'r1' else 'r2' end, 'c' || i from generate_series(0, 1999) i;
insert into send_dedup (app_id, sender_id, transaction_id, answer)
select 'app', 10000 + (i % 1000), i, 'true' from generate_series(1, 100000) i;
analyze;
SQL

explain() {
  echo
  echo "### $1"
  echo '```'
  echo "$2" | sed 's/^ *//'
  echo '```'
  echo '```'
  psql_plans -At -c "set search_path = plans" -c "begin" -c "explain (analyze, costs off, timing off, summary off) $2" \
    -c "rollback" | grep -v '^$'
  echo '```'
}

CONV=$(psql_plans -At -c "select id from plans.conversations where kind = 1 and low_id = 10042 limit 1")
GROUP_CONV=$(psql_plans -At -c "select id from plans.conversations where kind = 2")
MID=$(psql_plans -At -c "select max(msg_id) - 5 from plans.messages where conversation_id = $CONV")

explain "send: the whole one-target statement of SendStore (direct conversation, existing)" \
  "with appended as (insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id, last_at)
   select 'app', 1, t.low_id, t.high_id, 1, nextval('msg_ids'), now() from (values (10042::bigint, 110042::bigint))
   as t(low_id, high_id) order by t.low_id, t.high_id
   on conflict (app_id, kind, low_id, high_id) do update set last_seq = conversations.last_seq + 1,
   last_msg_id = nextval('msg_ids'), last_at = now() returning id, low_id, high_id, last_seq, last_msg_id, (xmax = 0) as created),
   stored as (insert into messages (conversation_id, msg_id, seq, sender_id, sender_device_sn, target_id, content_type,
   content, attachment, config, ext, created_ms) select a.id, a.last_msg_id, a.last_seq, 10042, null,
   case when a.low_id = 10042 then a.high_id else a.low_id end, 0, 'hi', null, null, null, 0 from appended a),
   new_members as (insert into conversation_members (conversation_id, user_id, app_id, peer_id, read_seq, delivered_seq)
   select distinct a.id, m.user_id, 'app', m.peer_id, case when m.user_id = 10042 then a.last_seq else 0 end,
   case when m.user_id = 10042 then a.last_seq else 0 end from appended a
   cross join lateral (values (a.low_id, a.high_id), (a.high_id, a.low_id)) as m(user_id, peer_id)
   where a.created on conflict do nothing),
   sender_read as (update conversation_members m set read_seq = greatest(m.read_seq, a.last_seq),
   delivered_seq = greatest(m.delivered_seq, a.last_seq) from appended a
   where m.conversation_id = a.id and m.user_id = 10042 and not a.created returning 1)
   select a.id, a.low_id, a.high_id, a.last_seq, a.last_msg_id, a.created, (select count(*) from sender_read)
   from appended a"
explain "change log: the users' connected devices (a direct message's two users)" \
  "select p.app_id, p.user_id, p.replica_id from presence p join replicas r on r.replica_id = p.replica_id
   and r.heartbeat_at > now() - interval '20 seconds'
   where (p.app_id, p.user_id) in (select * from unnest(array['app', 'app'], array[10042, 110042]::bigint[]))"
explain "change log: a 500-member group's members, then their connected devices" \
  "select p.app_id, p.user_id, p.replica_id from presence p join replicas r on r.replica_id = p.replica_id
   and r.heartbeat_at > now() - interval '20 seconds' where (p.app_id, p.user_id) in (select * from unnest(
   array_fill('app'::text, array[500]), array(select user_id from conversation_members where conversation_id = $GROUP_CONV)))"
explain "page: newest 20 (+1) of a conversation above the viewer's floor" \
  "select * from messages where conversation_id = $GROUP_CONV and msg_id > 0 and msg_id < 9223372036854775807
   order by msg_id desc limit 21"
explain "page: the viewer's and the peer's positions in the conversation at the address" \
  "select m.read_seq, m.floor_msg_id, p.read_seq from conversations c
   join conversation_members m on m.conversation_id = c.id and m.user_id = 10042
   left join conversation_members p on p.conversation_id = c.id and p.user_id = 110042
   where c.app_id = 'app' and c.kind = 1 and c.low_id = 10042 and c.high_id = 110042"
explain "unread: the viewer's conversations, most recent first" \
  "select m.peer_id, c.last_seq - greatest(m.read_seq, m.floor_seq) from conversation_members m
   join conversations c on c.id = m.conversation_id where m.app_id = 'app' and m.user_id = 10042
   and c.last_seq > m.floor_seq order by c.last_at desc, c.id desc limit 200"
explain "read receipt: everything up to msg_id" \
  "update conversation_members m set read_seq = greatest(read_seq, p.seq), delivered_seq = greatest(delivered_seq, p.seq)
   from (select seq from messages where conversation_id = $CONV and msg_id <= $MID order by msg_id desc limit 1) p
   where m.conversation_id = $CONV and m.user_id = 10042"
explain "de-duplication claim" \
  "insert into send_dedup (app_id, sender_id, transaction_id, answer) values ('app', 10042, 42, 'true')
   on conflict (app_id, sender_id, transaction_id) do update set answer = excluded.answer, created_at = now()
   where send_dedup.created_at < now() - make_interval(secs => 600) returning 1"

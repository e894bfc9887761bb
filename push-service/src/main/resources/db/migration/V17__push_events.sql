-- push.events (docs/events.md): what the apps' webhooks of message-service tell of pushes, written to the outbox in
-- the transaction of the change whoever makes it (push-service's expansion and API, push-worker's counts and offline
-- finishes), so an event is published if and only if its change commits. push-service's OutboxRelay publishes it.
-- Each record carries the webhook event's data as it is delivered: message-service only chooses the apps.

-- push.task.finished: a task reached a final state (done, expired, failed, cancelled); its counts per channel as
-- they stand then (receipts may still raise `received`). The task row is its transaction's last write (BatchLedger,
-- TaskStore), so the counts of every batch are there.
create function push_task_finished() returns trigger language plpgsql as $$
begin
    insert into outbox (topic, record_key, payload)
    select 'push.events', new.app_id || ':push_task:' || new.task_id, jsonb_build_object(
        'v', 1, 'type', 'push.task.finished', 'app_id', new.app_id,
        'at', (extract(epoch from clock_timestamp()) * 1000)::bigint,
        'data', jsonb_build_object(
            'task_id', new.task_id, 'state', new.state, 'reason', new.failure_reason,
            'devices_expanded', new.devices_expanded, 'batches_total', new.batches_total,
            'batches_done', new.batches_done, 'batches_expired', new.batches_expired,
            'created_ms', (extract(epoch from new.created_at) * 1000)::bigint,
            'finished_ms', (extract(epoch from coalesce(new.finished_at, now())) * 1000)::bigint,
            'counts', coalesce((select jsonb_object_agg(c.channel, jsonb_build_object(
                    'target', c.target - c.fallback_out + c.fallback_in, 'sent', c.sent, 'received', c.received,
                    'failed', c.failed, 'rejected', c.rejected))
                from push_task_counts c where c.task_id = new.task_id), '{}'::jsonb)))::text;
    return null;
end $$;
create trigger push_tasks_finished after update of state on push_tasks for each row
    when (new.state in ('done', 'expired', 'failed', 'cancelled') and old.state is distinct from new.state)
    execute function push_task_finished();

-- offline_push.failed: push-worker finished a device's offline notification of a chat message as failed (the
-- provider refused it, or it expired unsent) or rejected (the provider refused the token). Only these transitions
-- fire: the row's other updates (claims, leases, sent) cost the trigger's condition, evaluated without a call.
create function offline_push_failed() returns trigger language plpgsql as $$
begin
    insert into outbox (topic, record_key, payload)
    select 'push.events', new.app_id || ':offline_push:' || new.user_id, jsonb_build_object(
        'v', 1, 'type', 'offline_push.failed', 'app_id', new.app_id,
        'at', (extract(epoch from clock_timestamp()) * 1000)::bigint,
        'data', jsonb_build_object(
            'msg_id', new.msg_id, 'user_id', new.user_id, 'device_sn', new.device_sn,
            'conversation', new.conversation, 'channel', new.channel, 'outcome', new.state,
            'reason', new.reason))::text;
    return null;
end $$;
create trigger offline_push_trace_failed after update of state on offline_push_trace for each row
    when (new.state in ('failed', 'rejected') and old.state is distinct from new.state)
    execute function offline_push_failed();

package io.imcore.message.webhook;

import io.imcore.common.store.ChunkedDelete;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code webhook_deliveries}, the queue of events out and the apps' delivery log: plain statements, as the claim is
 * one {@code for update skip locked} statement that keeps each conversation's order across replicas
 * (docs/webhooks.md "Order and retries").
 */
@ApplicationScoped
public class DeliveryStore {

    /** An event to deliver. */
    public record Queued(String appId, String eventId, String type, String orderingKey, String body) {}

    /** A delivery claimed for one attempt, with where it goes. */
    public record Claimed(long id, String appId, String eventId, String body, int attempts, Instant createdAt,
            String url, String secret, int batchSize) {}

    /** One attempt's outcome; {@code status} null when no answer came. */
    public record Outcome(long id, boolean delivered, Integer status, int latencyMs, String answer,
            Instant nextAttemptAt) {}

    /** One line of the delivery log. */
    public record LogEntry(long id, String eventId, String type, String state, int attempts, Integer lastStatus,
            Integer lastLatencyMs, String lastAnswer, Instant createdAt, Instant deliveredAt, Instant nextAttemptAt) {}

    /** Queues events; one already queued (a redelivered record) is left as it is. */
    public void queue(Connection c, List<Queued> events) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into webhook_deliveries (app_id, event_id, event_type, ordering_key, body)
                values (?, ?, ?, ?, ?) on conflict (app_id, event_id) do nothing
                """)) {
            for (Queued event : events) {
                s.setString(1, event.appId());
                s.setString(2, event.eventId());
                s.setString(3, event.type());
                s.setString(4, event.orderingKey());
                s.setString(5, event.body());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /**
     * Claims up to {@code limit} due deliveries of enabled endpoints for {@code lease}: only the oldest pending
     * delivery of each conversation is due, so a conversation's events go one after the other, in order, whichever
     * replica sends them; a lease that ran out (its replica died) makes the delivery due again.
     */
    public List<Claimed> claim(Connection c, int limit, Duration lease) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                with due as (
                    select d.id from webhook_deliveries d
                    join webhook_endpoints e on e.app_id = d.app_id and e.disabled_at is null
                    where d.state = 'pending' and d.next_attempt_at <= now()
                      and (d.lease_until is null or d.lease_until < now())
                      and not exists (select 1 from webhook_deliveries p
                                      where p.app_id = d.app_id and p.ordering_key = d.ordering_key
                                        and p.state = 'pending' and p.id < d.id)
                    order by d.next_attempt_at, d.id
                    limit ?
                    for update of d skip locked)
                update webhook_deliveries w
                set lease_until = now() + ? * interval '1 millisecond', attempts = w.attempts + 1
                from due, webhook_endpoints e
                where w.id = due.id and e.app_id = w.app_id
                returning w.id, w.app_id, w.event_id, w.body, w.attempts, w.created_at, e.url, e.secret, e.batch_size
                """)) {
            s.setInt(1, limit);
            s.setLong(2, lease.toMillis());
            List<Claimed> claimed = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    claimed.add(new Claimed(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getInt(5), rs.getTimestamp(6).toInstant(), rs.getString(7), rs.getString(8),
                            rs.getInt(9)));
                }
            }
            return claimed;
        }
    }

    /** Records attempts: a delivered one is done, a failed one waits until its next attempt. */
    public void record(Connection c, List<Outcome> outcomes) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update webhook_deliveries
                set state = case when ? then 'delivered' else 'pending' end,
                    delivered_at = case when ? then now() end,
                    next_attempt_at = coalesce(?, next_attempt_at), lease_until = null,
                    last_status = ?, last_latency_ms = ?, last_answer = ?
                where id = ?
                """)) {
            for (Outcome outcome : outcomes) {
                s.setBoolean(1, outcome.delivered());
                s.setBoolean(2, outcome.delivered());
                s.setTimestamp(3, outcome.nextAttemptAt() == null ? null : Timestamp.from(outcome.nextAttemptAt()));
                s.setObject(4, outcome.status());
                s.setInt(5, outcome.latencyMs());
                s.setString(6, outcome.answer());
                s.setLong(7, outcome.id());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** The app's deliveries, newest first, older than {@code beforeId} (0: from the newest). */
    public List<LogEntry> log(Connection c, String appId, long beforeId, int limit) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                select id, event_id, event_type, state, attempts, last_status, last_latency_ms, last_answer,
                       created_at, delivered_at, next_attempt_at
                from webhook_deliveries where app_id = ? and (? = 0 or id < ?) order by id desc limit ?
                """)) {
            s.setString(1, appId);
            s.setLong(2, beforeId);
            s.setLong(3, beforeId);
            s.setInt(4, limit);
            List<LogEntry> entries = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Timestamp delivered = rs.getTimestamp(10);
                    entries.add(new LogEntry(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getInt(5), (Integer) rs.getObject(6), (Integer) rs.getObject(7), rs.getString(8),
                            rs.getTimestamp(9).toInstant(), delivered == null ? null : delivered.toInstant(),
                            rs.getTimestamp(11).toInstant()));
                }
            }
            return entries;
        }
    }

    /** Queues a delivery of the app again, due now ("send again" in the console); false when it has no such one. */
    public boolean resend(Connection c, String appId, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update webhook_deliveries set state = 'pending', next_attempt_at = now(), delivered_at = null
                where app_id = ? and id = ?
                """)) {
            s.setString(1, appId);
            s.setLong(2, id);
            return s.executeUpdate() == 1;
        }
    }

    /** Makes an endpoint's waiting deliveries due now (it was enabled again). */
    public void dueNow(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "update webhook_deliveries set next_attempt_at = now() where app_id = ? and state = 'pending'")) {
            s.setString(1, appId);
            s.executeUpdate();
        }
    }

    /** Deletes the deliveries queued longer than {@code retention} ago, in chunks; returns how many. */
    public long purge(Connection c, Duration retention) throws SQLException {
        return ChunkedDelete.delete(c, "webhook_deliveries", "created_at < now() - make_interval(secs => ?)", 1,
                (ps, first) -> ps.setDouble(first, retention.toMillis() / 1000.0), ChunkedDelete.CHUNK);
    }
}

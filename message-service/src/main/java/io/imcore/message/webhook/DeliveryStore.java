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
 * {@code webhook_deliveries}, the queue of events out and the apps' delivery log, and {@code webhook_heads}, each
 * conversation's oldest undelivered event: plain statements, as the claim is one {@code for update skip locked}
 * statement over the heads that keeps each conversation's order across replicas (docs/webhooks.md "Order and
 * retries").
 *
 * <p>A head is written under its row lock by whoever changes what is pending in its conversation: the queue's upsert
 * and the dispatcher's {@link #settle} both lock it first, so settling after a delivery sees every event queued
 * before it took the lock, and a queue after it finds the head settled (or gone, and makes a new one).
 */
@ApplicationScoped
public class DeliveryStore {

    private final WebhookSecrets secrets;

    public DeliveryStore(WebhookSecrets secrets) {
        this.secrets = secrets;
    }

    /** An event to deliver. */
    public record Queued(String appId, String eventId, String type, String orderingKey, String body) {}

    /** A delivery claimed for one attempt, with where it goes. */
    public record ClaimedDelivery(long id, String appId, String orderingKey, String eventId, String body, int attempts,
            Instant createdAt, String url, String secret, int batchSize) {}

    /** One attempt's outcome; {@code status} null when no answer came. */
    public record Outcome(long id, boolean delivered, Integer status, int latencyMs, String answer,
            Instant nextAttemptAt) {}

    /** One line of the delivery log. */
    public record LogEntry(long id, String eventId, String type, String state, int attempts, Integer lastStatus,
            Integer lastLatencyMs, String lastAnswer, Instant createdAt, Instant deliveredAt, Instant nextAttemptAt) {}

    /**
     * Queues events in their order, each conversation's first one its head when it has none; one already queued (a
     * redelivered record) is left as it is.
     */
    public void queue(Connection c, List<Queued> events) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        int n = events.size();
        String[] apps = new String[n];
        String[] ids = new String[n];
        String[] types = new String[n];
        String[] keys = new String[n];
        String[] bodies = new String[n];
        for (int i = 0; i < n; i++) {
            Queued event = events.get(i);
            apps[i] = event.appId();
            ids[i] = event.eventId();
            types[i] = event.type();
            keys[i] = event.orderingKey();
            bodies[i] = event.body();
        }
        // the upsert's update (a no-op on head_id) takes the head's row lock: see the class comment
        try (PreparedStatement s = c.prepareStatement("""
                with e as (select * from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
                           with ordinality as e(app_id, event_id, event_type, ordering_key, body, n)),
                     queued as (insert into webhook_deliveries (app_id, event_id, event_type, ordering_key, body)
                                select app_id, event_id, event_type, ordering_key, body from e order by n
                                on conflict (app_id, event_id) do nothing
                                returning id, app_id, ordering_key, next_attempt_at)
                insert into webhook_heads as h (app_id, ordering_key, head_id, next_attempt_at)
                select distinct on (app_id, ordering_key) app_id, ordering_key, id, next_attempt_at from queued
                order by app_id, ordering_key, id
                on conflict (app_id, ordering_key) do update set head_id = h.head_id
                """)) {
            s.setArray(1, c.createArrayOf("text", apps));
            s.setArray(2, c.createArrayOf("text", ids));
            s.setArray(3, c.createArrayOf("text", types));
            s.setArray(4, c.createArrayOf("text", keys));
            s.setArray(5, c.createArrayOf("text", bodies));
            s.executeUpdate();
        }
    }

    /** The claim: package-visible for its plan check ({@code WebhookHeadsTest}). */
    static final String CLAIM = """
                with due as (
                    select h.app_id, h.ordering_key, h.head_id from webhook_heads h
                    join webhook_endpoints e on e.app_id = h.app_id and e.disabled_at is null
                    where h.next_attempt_at <= now()
                    order by h.next_attempt_at
                    limit ?
                    for update of h skip locked),
                leased as (
                    update webhook_heads h set next_attempt_at = now() + ? * interval '1 millisecond'
                    from due where h.app_id = due.app_id and h.ordering_key = due.ordering_key)
                update webhook_deliveries w set attempts = w.attempts + 1
                from due, webhook_endpoints e
                where w.id = due.head_id and w.state = 'pending' and e.app_id = w.app_id
                returning w.id, w.app_id, w.ordering_key, w.event_id, w.body, w.attempts, w.created_at, e.url,
                          e.secret_sealed, e.batch_size
                """;

    /**
     * Claims up to {@code limit} due heads of enabled endpoints for {@code lease} (the head is due again when it
     * runs out: its replica died) and answers their deliveries: one per conversation, so a conversation's events go
     * one after the other, in order, whichever replica sends them.
     */
    public List<ClaimedDelivery> claim(Connection c, int limit, Duration lease) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(CLAIM)) {
            s.setInt(1, limit);
            s.setLong(2, lease.toMillis());
            List<ClaimedDelivery> claimed = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    claimed.add(new ClaimedDelivery(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getInt(6), rs.getTimestamp(7).toInstant(), rs.getString(8),
                            secrets.open(rs.getBytes(9), rs.getString(2)), rs.getInt(10)));
                }
            }
            return claimed;
        }
    }

    /**
     * Records the claimed deliveries' attempts ({@code outcomes} in the same order): a delivered one is done and its
     * conversation's next event becomes the head; a failed one and its head wait until its next attempt.
     */
    public void record(Connection c, List<ClaimedDelivery> claimed, List<Outcome> outcomes) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update webhook_deliveries
                set state = case when ? then 'delivered' else 'pending' end,
                    delivered_at = case when ? then now() end,
                    next_attempt_at = coalesce(?, next_attempt_at),
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
        List<String[]> settled = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "update webhook_heads set next_attempt_at = ? where app_id = ? and ordering_key = ? and head_id = ?")) {
            for (int i = 0; i < claimed.size(); i++) {
                ClaimedDelivery delivery = claimed.get(i);
                Outcome outcome = outcomes.get(i);
                if (outcome.delivered()) {
                    settled.add(new String[] {delivery.appId(), delivery.orderingKey()});
                    continue;
                }
                s.setTimestamp(1, Timestamp.from(outcome.nextAttemptAt()));
                s.setString(2, delivery.appId());
                s.setString(3, delivery.orderingKey());
                s.setLong(4, delivery.id());
                s.addBatch();
            }
            s.executeBatch();
        }
        settle(c, settled);
    }

    /**
     * Makes each conversation's oldest pending delivery its head, or drops the head when nothing is pending: the
     * heads are locked first, and each later statement sees every queue that held a lock before (read committed).
     */
    private static void settle(Connection c, List<String[]> conversations) throws SQLException {
        if (conversations.isEmpty()) {
            return;
        }
        String[] apps = conversations.stream().map(k -> k[0]).toArray(String[]::new);
        String[] keys = conversations.stream().map(k -> k[1]).toArray(String[]::new);
        String[] statements = {
            """
            select 1 from webhook_heads h join unnest(?::text[], ?::text[]) as k(app_id, ordering_key)
            on h.app_id = k.app_id and h.ordering_key = k.ordering_key
            order by h.app_id, h.ordering_key for update of h""",
            """
            delete from webhook_heads h using unnest(?::text[], ?::text[]) as k(app_id, ordering_key)
            where h.app_id = k.app_id and h.ordering_key = k.ordering_key
              and not exists (select 1 from webhook_deliveries d where d.app_id = h.app_id
                              and d.ordering_key = h.ordering_key and d.state = 'pending')""",
            """
            update webhook_heads h set head_id = n.id, next_attempt_at = n.next_attempt_at
            from unnest(?::text[], ?::text[]) as k(app_id, ordering_key),
                 lateral (select d.id, d.next_attempt_at from webhook_deliveries d
                          where d.app_id = k.app_id and d.ordering_key = k.ordering_key and d.state = 'pending'
                          order by d.id limit 1) n
            where h.app_id = k.app_id and h.ordering_key = k.ordering_key"""};
        for (String statement : statements) {
            try (PreparedStatement s = c.prepareStatement(statement)) {
                s.setArray(1, c.createArrayOf("text", apps));
                s.setArray(2, c.createArrayOf("text", keys));
                s.execute();
            }
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

    /**
     * Queues a delivery of the app again ("send again" in the console); false when it has no such one. It goes to
     * its conversation's queue in its place by id: before the conversation's other pending events, if any.
     */
    public boolean resend(Connection c, String appId, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                with again as (update webhook_deliveries set state = 'pending', next_attempt_at = now(),
                                      delivered_at = null
                               where app_id = ? and id = ? returning id, app_id, ordering_key, next_attempt_at)
                insert into webhook_heads as h (app_id, ordering_key, head_id, next_attempt_at)
                select app_id, ordering_key, id, next_attempt_at from again
                on conflict (app_id, ordering_key) do update set head_id = least(h.head_id, excluded.head_id)
                """)) {
            s.setString(1, appId);
            s.setLong(2, id);
            return s.executeUpdate() == 1;
        }
    }

    /** Makes an endpoint's waiting deliveries due now (it was enabled again). */
    public void dueNow(Connection c, String appId) throws SQLException {
        for (String sql : new String[] {
            "update webhook_deliveries set next_attempt_at = now() where app_id = ? and state = 'pending'",
            "update webhook_heads set next_attempt_at = now() where app_id = ?"}) {
            try (PreparedStatement s = c.prepareStatement(sql)) {
                s.setString(1, appId);
                s.executeUpdate();
            }
        }
    }

    /** Takes a disabled endpoint's heads out of the claims' way until {@link #dueNow}. */
    public void pause(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "update webhook_heads set next_attempt_at = 'infinity' where app_id = ?")) {
            s.setString(1, appId);
            s.executeUpdate();
        }
    }

    /** Deletes the delivered deliveries queued longer than {@code retention} ago, in chunks; returns how many. */
    public long purgeDelivered(Connection c, Duration retention) throws SQLException {
        return ChunkedDelete.delete(c, "webhook_deliveries",
                "state = 'delivered' and created_at < now() - make_interval(secs => ?)", 1,
                (ps, first) -> ps.setDouble(first, retention.toMillis() / 1000.0), ChunkedDelete.CHUNK);
    }

    /**
     * Deletes the undelivered deliveries queued longer than {@code retention} ago (an endpoint disabled that long)
     * and settles their conversations' heads again, in the caller's transaction; returns how many.
     */
    public long purgeUndelivered(Connection c, Duration retention) throws SQLException {
        long purged = 0;
        List<String[]> conversations = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("""
                with gone as (delete from webhook_deliveries where state = 'pending'
                              and created_at < now() - make_interval(secs => ?) returning app_id, ordering_key)
                select app_id, ordering_key, count(*) from gone group by app_id, ordering_key
                """)) {
            s.setDouble(1, retention.toMillis() / 1000.0);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    conversations.add(new String[] {rs.getString(1), rs.getString(2)});
                    purged += rs.getLong(3);
                }
            }
        }
        settle(c, conversations);
        return purged;
    }
}

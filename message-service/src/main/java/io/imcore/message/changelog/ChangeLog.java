package io.imcore.message.changelog;

import io.imcore.message.MessageConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;
import java.util.function.Predicate;

/**
 * Each user's ordered change log (docs/message-storage.md "The change log"): the one entry point every feature
 * calls to give a change a place in its users' logs, {@link #append}, inside the transaction that makes the change,
 * then {@link #announce} after that transaction commits. Positions are dense per user and follow the commit order,
 * so a reader of positions after a cursor never skips one that commits later.
 */
@ApplicationScoped
public class ChangeLog {

    /** Raises each user's head by its count of changes, in (app, user) order; returns the heads after. */
    private static final String RAISE_HEADS = "insert into sync_heads (app_id, user_id, last_pos)"
            + " select t.app_id, t.user_id, t.n from unnest(?::text[], ?::bigint[], ?::bigint[]) as t(app_id, user_id, n)"
            + " order by t.app_id, t.user_id"
            + " on conflict (app_id, user_id) do update set last_pos = sync_heads.last_pos + excluded.last_pos"
            + " returning app_id, user_id, last_pos";

    /**
     * The events, and the users' live connections. A statement of its own, after the heads are locked: its snapshot
     * is taken after the lock was granted, so it sees every connection registered before a replay read the head.
     */
    private static final String INSERT_EVENTS = "with stored as (insert into sync_events (app_id, user_id, position,"
            + " type, peer_id, conversation_id, msg_id, payload) select * from unnest(?::text[], ?::bigint[],"
            + " ?::bigint[], ?::smallint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[]))"
            + " select p.app_id, p.user_id, p.replica_id from presence p join replicas r on r.replica_id = p.replica_id"
            + " and r.heartbeat_at > now() - make_interval(secs => ?)"
            + " where (p.app_id, p.user_id) in (select * from unnest(?::text[], ?::bigint[]))";

    private final MessageConfig config;
    private final TransactionSynchronizationRegistry transactions;
    private final Event<Committed> committed;

    /** Changes whose transaction committed, for the live announcement. */
    public record Committed(List<Logged> changes) {}

    public ChangeLog(MessageConfig config, TransactionSynchronizationRegistry transactions, Event<Committed> committed) {
        this.config = config;
        this.transactions = transactions;
        this.committed = committed;
    }

    /**
     * Writes the changes into their users' logs, in the order given per user, in the caller's transaction on
     * {@code c}; returns them with their positions, in the same order. Call it once, as the transaction's last
     * statement: it locks the users' heads (in one order: two writers never deadlock on them) until the commit,
     * and a transaction holding them waits for nothing more.
     */
    public List<Logged> append(Connection c, List<Change> changes) throws SQLException {
        if (changes.isEmpty()) {
            return List.of();
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Change change : changes) {
            counts.merge(key(change.appId(), change.userId()), 1, Integer::sum);
        }
        List<Change> users = changes.stream().filter(distinctUsers()).sorted(Comparator.comparing(Change::appId)
                .thenComparingLong(Change::userId)).toList();
        int n = users.size();
        String[] apps = new String[n];
        Long[] ids = new Long[n];
        Long[] ns = new Long[n];
        for (int i = 0; i < n; i++) {
            apps[i] = users.get(i).appId();
            ids[i] = users.get(i).userId();
            ns[i] = (long) counts.get(key(apps[i], ids[i]));
        }
        Map<String, Long> next = new HashMap<>(n * 2);
        try (PreparedStatement ps = c.prepareStatement(RAISE_HEADS)) {
            ps.setArray(1, c.createArrayOf("text", apps));
            ps.setArray(2, c.createArrayOf("bigint", ids));
            ps.setArray(3, c.createArrayOf("bigint", ns));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = key(rs.getString(1), rs.getLong(2));
                    next.put(key, rs.getLong(3) - counts.get(key) + 1);
                }
            }
        }
        int m = changes.size();
        long[] positions = new long[m];
        String[] eventApps = new String[m];
        Long[] eventUsers = new Long[m];
        Long[] eventPositions = new Long[m];
        Short[] types = new Short[m];
        Long[] peers = new Long[m];
        Long[] conversations = new Long[m];
        Long[] msgIds = new Long[m];
        String[] payloads = new String[m];
        for (int i = 0; i < m; i++) {
            Change change = changes.get(i);
            positions[i] = next.merge(key(change.appId(), change.userId()), 1L, Long::sum) - 1;
            eventApps[i] = change.appId();
            eventUsers[i] = change.userId();
            eventPositions[i] = positions[i];
            types[i] = change.type().code;
            peers[i] = change.peerId();
            conversations[i] = change.conversationId() == 0 ? null : change.conversationId();
            msgIds[i] = change.msgId() == 0 ? null : change.msgId();
            payloads[i] = change.payload();
        }
        Map<String, List<String>> replicas = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(INSERT_EVENTS)) {
            int i = 0;
            ps.setArray(++i, c.createArrayOf("text", eventApps));
            ps.setArray(++i, c.createArrayOf("bigint", eventUsers));
            ps.setArray(++i, c.createArrayOf("bigint", eventPositions));
            ps.setArray(++i, c.createArrayOf("smallint", types));
            ps.setArray(++i, c.createArrayOf("bigint", peers));
            ps.setArray(++i, c.createArrayOf("bigint", conversations));
            ps.setArray(++i, c.createArrayOf("bigint", msgIds));
            ps.setArray(++i, c.createArrayOf("text", payloads));
            ps.setDouble(++i, config.presenceExpiry().toMillis() / 1000.0);
            ps.setArray(++i, c.createArrayOf("text", apps));
            ps.setArray(++i, c.createArrayOf("bigint", ids));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    replicas.computeIfAbsent(key(rs.getString(1), rs.getLong(2)), k -> new ArrayList<>(2))
                            .add(rs.getString(3));
                }
            }
        }
        List<Logged> logged = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            Change change = changes.get(i);
            logged.add(new Logged(change, positions[i],
                    replicas.getOrDefault(key(change.appId(), change.userId()), List.of())));
        }
        return logged;
    }

    /**
     * Hands the changes to the live announcement: at once outside a JTA transaction (call it after the commit),
     * after the commit inside one (nothing when it rolls back).
     */
    public void announce(List<Logged> changes) {
        if (changes.stream().allMatch(logged -> logged.replicas().isEmpty())) {
            return;
        }
        if (transactions.getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            committed.fire(new Committed(changes));
            return;
        }
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    committed.fire(new Committed(changes));
                }
            }
        });
    }

    /** The users' ids of a conversation (a group's members), for a change every member must learn of. */
    public static long[] members(Connection c, long conversationId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select array(select user_id from conversation_members where conversation_id = ?)")) {
            ps.setLong(1, conversationId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Array array = rs.getArray(1);
                Long[] boxed = (Long[]) array.getArray();
                long[] ids = new long[boxed.length];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = boxed[i];
                }
                return ids;
            }
        }
    }

    private static Predicate<Change> distinctUsers() {
        Set<String> seen = new HashSet<>();
        return change -> seen.add(key(change.appId(), change.userId()));
    }

    private static String key(String appId, long userId) {
        return appId + ':' + userId;
    }
}

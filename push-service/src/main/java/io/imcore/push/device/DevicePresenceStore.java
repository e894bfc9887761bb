package io.imcore.push.device;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Live-connection presence per device ({@code push_presence}), as message-service's presence.events report it. */
@ApplicationScoped
public class DevicePresenceStore {

    /** A device's connection state as one presence event reports it. */
    public record Change(String appId, long userId, int deviceSn, long seq, boolean online) {

        /**
         * Which of two reports of one device stands: a higher seq always wins; at the same seq an offline (it ends
         * that connection, and an ended connection never comes back).
         */
        static final Comparator<Change> STANDING = Comparator.comparingLong(Change::seq)
                .thenComparing(Change::online, Comparator.reverseOrder());

        String device() {
            return appId + ":" + userId + ":" + deviceSn;
        }
    }

    /**
     * Records each device's presence unless a newer connection is already held ({@link Change#STANDING}), in one
     * statement: a device reported twice keeps its standing report, as if they had been applied one by one.
     */
    public void apply(Connection c, List<Change> changes) throws SQLException {
        Map<String, Change> standing = new HashMap<>();
        for (Change change : changes) {
            standing.merge(change.device(), change, (a, b) -> Change.STANDING.compare(a, b) >= 0 ? a : b);
        }
        if (standing.isEmpty()) {
            return;
        }
        Collection<Change> rows = standing.values();
        try (PreparedStatement ps = c.prepareStatement("insert into push_presence"
                + " (app_id, user_id, device_sn, seq, online)"
                + " select * from unnest(?::text[], ?::bigint[], ?::int[], ?::bigint[], ?::boolean[])"
                + " as t(app_id, user_id, device_sn, seq, online)"
                // one lock order for every batch: two replicas' batches may wait on each other, never deadlock
                + " order by t.app_id, t.user_id, t.device_sn"
                + " on conflict (app_id, user_id, device_sn) do update set seq = excluded.seq, online = excluded.online"
                + " where excluded.seq > push_presence.seq"
                + " or (excluded.seq = push_presence.seq and not excluded.online)")) {
            ps.setArray(1, c.createArrayOf("text", rows.stream().map(Change::appId).toArray()));
            ps.setArray(2, Database.bigints(c, rows.stream().mapToLong(Change::userId).toArray()));
            ps.setArray(3, c.createArrayOf("integer", rows.stream().map(Change::deviceSn).toArray()));
            ps.setArray(4, Database.bigints(c, rows.stream().mapToLong(Change::seq).toArray()));
            ps.setArray(5, c.createArrayOf("boolean", rows.stream().map(Change::online).toArray()));
            ps.executeUpdate();
        }
    }
}

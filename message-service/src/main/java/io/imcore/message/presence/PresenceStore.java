package io.imcore.message.presence;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which device is connected to which replica. A row counts only while its replica's heartbeat is fresh, so the
 * connections of a crashed replica stop counting at once and are removed by {@link #reapDeadReplicas}.
 */
@ApplicationScoped
public class PresenceStore {

    public record Device(String appId, long userId, int deviceSn, String replicaId, long connectedAtMs) {}

    private static final String LIVE_REPLICA = " join replicas r on r.replica_id = p.replica_id"
            + " and r.heartbeat_at > now() - make_interval(secs => ?)";

    public void heartbeat(Connection c, String replicaId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into replicas (replica_id, heartbeat_at)"
                + " values (?, now()) on conflict (replica_id) do update set heartbeat_at = now()")) {
            ps.setString(1, replicaId);
            ps.executeUpdate();
        }
    }

    /** A connection to record: {@code connectionId} names it, so only its own close removes it. */
    public record DeviceConnection(String appId, long userId, int deviceSn, String connectionId) {

        /** The device, whatever its connection: one statement may take each device once. */
        public String deviceKey() {
            return appId + '\u0000' + userId + '\u0000' + deviceSn;
        }
    }

    /**
     * Records the connections of this replica, each replacing an older one of the same device, in one statement;
     * returns the time of each (ms since the epoch, its presence sequence) by connection id. No device may appear
     * twice: one statement cannot update a row twice.
     */
    public Map<String, Long> connect(Connection c, String replicaId, List<DeviceConnection> connections)
            throws SQLException {
        Map<String, Long> times = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("insert into presence (app_id, user_id, device_sn, replica_id,"
                + " connection_id, connected_at) select t.app_id, t.user_id, t.device_sn, ?, t.connection_id,"
                + " clock_timestamp() from unnest(?::text[], ?::bigint[], ?::int[], ?::text[])"
                + " as t(app_id, user_id, device_sn, connection_id) order by t.app_id, t.user_id, t.device_sn"
                + " on conflict (app_id, user_id, device_sn) do update set replica_id = excluded.replica_id,"
                + " connection_id = excluded.connection_id, connected_at = excluded.connected_at"
                + " returning connection_id, (extract(epoch from connected_at) * 1000)::bigint")) {
            ps.setString(1, replicaId);
            bindConnections(c, ps, 2, connections);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    times.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return times;
    }

    /**
     * Removes the connections, each unless its device has connected again since, in one statement; returns the
     * connection ids that were removed.
     */
    public Set<String> disconnect(Connection c, List<DeviceConnection> connections) throws SQLException {
        Set<String> removed = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("delete from presence p"
                + " using unnest(?::text[], ?::bigint[], ?::int[], ?::text[]) as t(app_id, user_id, device_sn,"
                + " connection_id) where p.app_id = t.app_id and p.user_id = t.user_id"
                + " and p.device_sn = t.device_sn and p.connection_id = t.connection_id returning p.connection_id")) {
            bindConnections(c, ps, 1, connections);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    removed.add(rs.getString(1));
                }
            }
        }
        return removed;
    }

    /** The connected devices of the users. */
    public List<Device> online(Connection c, String appId, long[] userIds, Duration expiry) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select p.app_id, p.user_id, p.device_sn, p.replica_id,"
                + " (extract(epoch from p.connected_at) * 1000)::bigint from presence p" + LIVE_REPLICA
                + " where p.app_id = ? and p.user_id = any(?) order by p.user_id, p.device_sn")) {
            ps.setDouble(1, expiry.toMillis() / 1000.0);
            ps.setString(2, appId);
            ps.setArray(3, Database.bigints(c, userIds));
            return devices(ps);
        }
    }

    /** Which of the devices ({@code userIds[i]}, {@code deviceSns[i]}) are connected, and where; one query. */
    public List<Device> locate(Connection c, String appId, long[] userIds, int[] deviceSns, Duration expiry)
            throws SQLException {
        Integer[] sns = new Integer[deviceSns.length];
        for (int i = 0; i < sns.length; i++) {
            sns[i] = deviceSns[i];
        }
        try (PreparedStatement ps = c.prepareStatement("select p.app_id, p.user_id, p.device_sn, p.replica_id,"
                + " (extract(epoch from p.connected_at) * 1000)::bigint from presence p" + LIVE_REPLICA
                + " where p.app_id = ? and (p.user_id, p.device_sn) in"
                + " (select t.user_id, t.device_sn from unnest(?::bigint[], ?::int[]) as t(user_id, device_sn))")) {
            ps.setDouble(1, expiry.toMillis() / 1000.0);
            ps.setString(2, appId);
            ps.setArray(3, Database.bigints(c, userIds));
            ps.setArray(4, c.createArrayOf("integer", sns));
            return devices(ps);
        }
    }

    /** Removes replicas whose heartbeat stopped, and their connections; returns the connections removed. */
    public List<Device> reapDeadReplicas(Connection c, Duration expiry) throws SQLException {
        List<Device> removed;
        try (PreparedStatement ps = c.prepareStatement("delete from presence p using replicas r"
                + " where r.replica_id = p.replica_id and r.heartbeat_at <= now() - make_interval(secs => ?)"
                + " returning p.app_id, p.user_id, p.device_sn, p.replica_id,"
                + " (extract(epoch from p.connected_at) * 1000)::bigint")) {
            ps.setDouble(1, expiry.toMillis() / 1000.0);
            removed = devices(ps);
        }
        try (PreparedStatement ps = c.prepareStatement(
                "delete from replicas where heartbeat_at <= now() - make_interval(secs => ?)")) {
            ps.setDouble(1, expiry.toMillis() / 1000.0);
            ps.executeUpdate();
        }
        return removed;
    }

    /** Removes a replica and its connections (its shutdown); returns the connections removed. */
    public List<Device> removeReplica(Connection c, String replicaId) throws SQLException {
        List<Device> removed;
        try (PreparedStatement ps = c.prepareStatement("delete from presence p where p.replica_id = ?"
                + " returning p.app_id, p.user_id, p.device_sn, p.replica_id,"
                + " (extract(epoch from p.connected_at) * 1000)::bigint")) {
            ps.setString(1, replicaId);
            removed = devices(ps);
        }
        try (PreparedStatement ps = c.prepareStatement("delete from replicas where replica_id = ?")) {
            ps.setString(1, replicaId);
            ps.executeUpdate();
        }
        return removed;
    }

    /** The connections as four arrays (app, user, device, connection id) from parameter {@code first} on. */
    private static void bindConnections(Connection c, PreparedStatement ps, int first,
            List<DeviceConnection> connections) throws SQLException {
        ps.setArray(first, c.createArrayOf("text",
                connections.stream().map(DeviceConnection::appId).toArray()));
        ps.setArray(first + 1, c.createArrayOf("bigint",
                connections.stream().map(DeviceConnection::userId).toArray()));
        ps.setArray(first + 2, c.createArrayOf("integer",
                connections.stream().map(DeviceConnection::deviceSn).toArray()));
        ps.setArray(first + 3, c.createArrayOf("text",
                connections.stream().map(DeviceConnection::connectionId).toArray()));
    }

    private static List<Device> devices(PreparedStatement ps) throws SQLException {
        List<Device> devices = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                devices.add(new Device(rs.getString(1), rs.getLong(2), rs.getInt(3), rs.getString(4), rs.getLong(5)));
            }
        }
        return devices;
    }
}

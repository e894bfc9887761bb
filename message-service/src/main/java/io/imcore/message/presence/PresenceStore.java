package io.imcore.message.presence;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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

    /** Records the connection (replacing an older one of the same device); returns its time in milliseconds. */
    public long connect(Connection c, String appId, long userId, int deviceSn, String replicaId, String connectionId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into presence (app_id, user_id, device_sn, replica_id,"
                + " connection_id, connected_at) values (?, ?, ?, ?, ?, clock_timestamp())"
                + " on conflict (app_id, user_id, device_sn) do update set replica_id = excluded.replica_id,"
                + " connection_id = excluded.connection_id, connected_at = excluded.connected_at"
                + " returning (extract(epoch from connected_at) * 1000)::bigint")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.setString(4, replicaId);
            ps.setString(5, connectionId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Removes the connection unless the device has connected again since; true when it was removed. */
    public boolean disconnect(Connection c, String appId, long userId, int deviceSn, String connectionId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("delete from presence"
                + " where app_id = ? and user_id = ? and device_sn = ? and connection_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.setString(4, connectionId);
            return ps.executeUpdate() > 0;
        }
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

package io.imcore.push.device;

import io.imcore.common.push.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import io.imcore.push.device.Dtos.BoundToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The device registry: {@code push_devices} (one row per device of a user) and the provider tokens bound to them
 * ({@code push_device_tokens}, at most one per device and channel).
 */
@ApplicationScoped
public class DeviceStore {

    /** A certificate of the app, named by a bind's notifier_name. */
    public record Notifier(String name, Channel channel, int environment) {}

    /**
     * Records a device auth-service registered, or fills the push_token of the row a bind created before the
     * event arrived. The event carries the device's full state, so a redelivery writes the same values again.
     */
    public void registered(Connection c, String appId, long userId, int deviceSn, String pushToken)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn, push_token)"
                + " values (?, ?, ?, ?) on conflict (app_id, user_id, device_sn)"
                + " do update set push_token = excluded.push_token")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.setString(4, pushToken);
            ps.executeUpdate();
        }
    }

    public OptionalLong deviceId(Connection c, String appId, long userId, int deviceSn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select device_id from push_devices where app_id = ? and user_id = ? and device_sn = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /** Creates the device's row ahead of its device.registered event (push_token null until then); returns its id. */
    public long createAheadOfEvent(Connection c, String appId, long userId, int deviceSn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn)"
                + " values (?, ?, ?) on conflict (app_id, user_id, device_sn) do nothing")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.executeUpdate();
        }
        // the row is there now: inserted above, or by the event (or a concurrent bind) in the meantime
        return deviceId(c, appId, userId, deviceSn).orElseThrow();
    }

    public Optional<Notifier> notifier(Connection c, String appId, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select provider, environment from push_certificates where app_id = ? and name = ?")) {
            ps.setString(1, appId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                int environment = rs.getInt(2);
                return Channel.fromProvider(rs.getInt(1)).map(channel -> new Notifier(name, channel, environment));
            }
        }
    }

    /**
     * Binds the provider token to the device for the notifier's channel, replacing the device's previous token of
     * that channel and taking the token away from any other device of the app (one phone, one owner).
     */
    public void bindToken(Connection c, String appId, long deviceId, Notifier notifier, String token)
            throws SQLException {
        String channel = notifier.channel().wireName();
        // two binds of the same token to different devices would otherwise both miss the other's row
        TransactionLock.acquire(c, "push_device_tokens:" + appId + ":" + channel + ":" + token);
        try (PreparedStatement ps = c.prepareStatement("delete from push_device_tokens"
                + " where app_id = ? and channel = ? and token = ? and device_id <> ?")) {
            ps.setString(1, appId);
            ps.setString(2, channel);
            ps.setString(3, token);
            ps.setLong(4, deviceId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("insert into push_device_tokens"
                + " (device_id, channel, app_id, token, notifier_name, environment) values (?, ?, ?, ?, ?, ?)"
                + " on conflict (device_id, channel) do update set token = excluded.token,"
                + " notifier_name = excluded.notifier_name, environment = excluded.environment, bound_at = now()")) {
            ps.setLong(1, deviceId);
            ps.setString(2, channel);
            ps.setString(3, appId);
            ps.setString(4, token);
            ps.setString(5, notifier.name());
            ps.setInt(6, notifier.environment());
            ps.executeUpdate();
        }
    }

    /** Removes every provider token of the user's device; nothing to remove is fine. */
    public void unbindTokens(Connection c, String appId, long userId, int deviceSn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("delete from push_device_tokens t using push_devices d"
                + " where t.device_id = d.device_id and d.app_id = ? and d.user_id = ? and d.device_sn = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.executeUpdate();
        }
    }

    /** Sets (or with null clears) the alias of the user's device with that push_token; false if there is none. */
    public boolean setAlias(Connection c, String appId, long userId, String pushToken, String alias)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "update push_devices set alias = ? where app_id = ? and push_token = ? and user_id = ?")) {
            ps.setString(1, alias);
            ps.setString(2, appId);
            ps.setString(3, pushToken);
            ps.setLong(4, userId);
            return ps.executeUpdate() == 1;
        }
    }

    /** The provider tokens bound to the user's devices, by device_sn and channel, with the token masked. */
    public List<BoundToken> boundTokens(Connection c, String appId, long userId) throws SQLException {
        List<BoundToken> list = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select d.device_sn, t.notifier_name, t.channel, t.token,"
                + " t.bound_at from push_devices d join push_device_tokens t on t.device_id = d.device_id"
                + " where d.app_id = ? and d.user_id = ? order by d.device_sn, t.channel")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    list.add(new BoundToken(rs.getInt(1), rs.getString(2), rs.getString(3),
                            TokenMask.mask(rs.getString(4)), rs.getTimestamp(5).toInstant().toEpochMilli()));
                }
            }
        }
        return list;
    }
}

package io.imcore.push.device;

import io.imcore.push.app.TransactionLocks;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The devices of the registry ({@code push_devices}, entity {@link PushDevice}) and the provider tokens bound to them
 * ({@code push_device_tokens}, entity {@link PushDeviceToken}; deleted with their device): the Panache repository of
 * both, and the two inserts into push_devices that stay plain SQL because each is decided by the row's unique key
 * ({@code insert ... on conflict}) against the other: the device feed's upsert, and a bind's row created ahead of the
 * feed's event (docs/architecture.md); the feed's delete of a removed device sits beside its upsert. The registry's
 * edits go through the entities (DeviceRegistryService).
 */
@ApplicationScoped
public class DeviceStore implements PanacheRepositoryBase<PushDevice, Long> {

    /** A provider token bound to a device of a user, with the device's number. */
    public record TokenBinding(int deviceSn, String notifierName, String channel, String token, Instant boundAt) {}

    private final TransactionLocks locks;

    public DeviceStore(TransactionLocks locks) {
        this.locks = locks;
    }

    public Optional<PushDevice> findDevice(String appId, long userId, int deviceSn) {
        return find("appId = ?1 and userId = ?2 and deviceSn = ?3", appId, userId, deviceSn).firstResultOptional();
    }

    /** The user's device with this push_token (the app's tokens are unique). */
    public Optional<PushDevice> findByPushToken(String appId, long userId, String pushToken) {
        return find("appId = ?1 and pushToken = ?2 and userId = ?3", appId, pushToken, userId).firstResultOptional();
    }

    /** The provider tokens bound to the user's devices, by device_sn and channel. */
    public List<TokenBinding> boundTokens(String appId, long userId) {
        return getEntityManager().createQuery("select new " + TokenBinding.class.getName()
                        + "(d.deviceSn, t.notifierName, t.channel, t.token, t.boundAt)"
                        + " from PushDevice d join PushDeviceToken t on t.deviceId = d.deviceId"
                        + " where d.appId = ?1 and d.userId = ?2 order by d.deviceSn, t.channel", TokenBinding.class)
                .setParameter(1, appId).setParameter(2, userId).getResultList();
    }

    /** The users of the app with a device carrying the alias, ascending, at most {@code limit}. */
    public List<Long> usersWithAlias(String appId, String alias, int limit) {
        return getEntityManager().createQuery("select distinct d.userId from PushDevice d where d.appId = ?1"
                        + " and d.alias = ?2 order by d.userId", Long.class)
                .setParameter(1, appId).setParameter(2, alias).setMaxResults(limit).getResultList();
    }

    /**
     * Binds the provider token to the device for the channel, replacing the device's previous token of that channel
     * and taking the token away from any other device of the app (one phone, one owner).
     */
    public void bind(String appId, long deviceId, String channel, String notifierName, int environment, String token) {
        // two binds of one token to different devices would otherwise both miss the other's row; then two binds to
        // one device and channel would both insert. Always in this order, so two binds never wait on each other.
        locks.acquire("push_device_tokens:" + appId + ":" + channel + ":" + token);
        locks.acquire("push_device_tokens:" + deviceId + ":" + channel);
        getEntityManager().createQuery("delete from PushDeviceToken t where t.appId = ?1 and t.channel = ?2"
                        + " and t.token = ?3 and t.deviceId <> ?4")
                .setParameter(1, appId).setParameter(2, channel).setParameter(3, token).setParameter(4, deviceId)
                .executeUpdate();
        PushDeviceToken bound = getEntityManager().find(PushDeviceToken.class,
                new PushDeviceToken.Key(deviceId, channel));
        boolean first = bound == null;
        if (first) {
            bound = new PushDeviceToken();
            bound.deviceId = deviceId;
            bound.channel = channel;
            bound.appId = appId;
        }
        bound.token = token;
        bound.notifierName = notifierName;
        bound.environment = environment;
        bound.boundAt = Instant.now();
        if (first) {
            getEntityManager().persist(bound);
        }
    }

    /** Removes every provider token of the device. */
    public void unbindAll(long deviceId) {
        getEntityManager().createQuery("delete from PushDeviceToken t where t.deviceId = ?1")
                .setParameter(1, deviceId).executeUpdate();
    }

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

    /**
     * Deletes a device auth-service removed, with its provider tokens and badge (deleted with it), and remembers the
     * removal ({@link #wasRemoved}); a redelivery changes nothing.
     */
    public void removed(Connection c, String appId, long userId, int deviceSn) throws SQLException {
        for (String sql : List.of("delete from push_devices where app_id = ? and user_id = ? and device_sn = ?",
                "insert into push_removed_devices (app_id, user_id, device_sn) values (?, ?, ?) on conflict do nothing")) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, appId);
                ps.setLong(2, userId);
                ps.setInt(3, deviceSn);
                ps.executeUpdate();
            }
        }
    }

    /** Whether auth-service removed the device (device_sn numbers are never handed out twice per user). */
    public boolean wasRemoved(Connection c, String appId, long userId, int deviceSn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select 1 from push_removed_devices"
                + " where app_id = ? and user_id = ? and device_sn = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private OptionalLong deviceId(Connection c, String appId, long userId, int deviceSn) throws SQLException {
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
}

package io.imcore.push.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class PushDeviceRepository implements PanacheRepositoryBase<PushDevice, Long> {

    /** A provider token bound to a device of a user, with the device's number. */
    public record BoundToken(int deviceSn, String notifierName, String channel, String token, Instant boundAt) {}

    public Optional<PushDevice> find(String appId, long userId, int deviceSn) {
        return find("appId = ?1 and userId = ?2 and deviceSn = ?3", appId, userId, deviceSn).firstResultOptional();
    }

    /** The user's device with this push_token (the app's tokens are unique). */
    public Optional<PushDevice> findByPushToken(String appId, long userId, String pushToken) {
        return find("appId = ?1 and pushToken = ?2 and userId = ?3", appId, pushToken, userId).firstResultOptional();
    }

    /** The provider tokens bound to the user's devices, by device_sn and channel. */
    public List<BoundToken> boundTokens(String appId, long userId) {
        return getEntityManager().createQuery("select new " + BoundToken.class.getName()
                        + "(d.deviceSn, t.notifierName, t.channel, t.token, t.boundAt)"
                        + " from PushDevice d join PushDeviceToken t on t.deviceId = d.deviceId"
                        + " where d.appId = ?1 and d.userId = ?2 order by d.deviceSn, t.channel", BoundToken.class)
                .setParameter(1, appId).setParameter(2, userId).getResultList();
    }
}

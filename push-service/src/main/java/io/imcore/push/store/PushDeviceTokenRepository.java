package io.imcore.push.store;

import io.imcore.push.app.TransactionLocks;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

@ApplicationScoped
public class PushDeviceTokenRepository implements PanacheRepositoryBase<PushDeviceToken, PushDeviceToken.Key> {

    private final TransactionLocks locks;

    public PushDeviceTokenRepository(TransactionLocks locks) {
        this.locks = locks;
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
        delete("appId = ?1 and channel = ?2 and token = ?3 and deviceId <> ?4", appId, channel, token, deviceId);
        PushDeviceToken bound = findById(new PushDeviceToken.Key(deviceId, channel));
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
            persist(bound);
        }
    }

    /** Removes every provider token of the device. */
    public void unbindAll(long deviceId) {
        delete("deviceId", deviceId);
    }
}

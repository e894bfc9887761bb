package io.imcore.pushworker.batch;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.WorkerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rate limits of this replica's deliveries (docs/push-worker.md "Rate limits"): per channel over all apps
 * ({@code rate}) and per channel and app ({@code app-rate}: the providers' quotas are per app); 0 is no limit.
 */
@ApplicationScoped
public class DeliveryPacer {

    private final WorkerConfig config;
    private final Map<Channel, DeliveryRateLimit> channelLimits = new ConcurrentHashMap<>();
    private final Map<String, DeliveryRateLimit> appLimits = new ConcurrentHashMap<>();

    public DeliveryPacer(WorkerConfig config) {
        this.config = config;
    }

    /** Takes the deliveries from the channel's and the app's rate limits: how long to wait before sending them (ns). */
    long pause(Channel channel, String appId, int deliveries) {
        WorkerConfig.ChannelConfig limits = config.channel().get(channel.wireName());
        long pause = 0;
        if (limits.rate() > 0) {
            pause = channelLimits.computeIfAbsent(channel, c -> new DeliveryRateLimit(limits.rate()))
                    .reserve(deliveries);
        }
        if (limits.appRate() > 0) {
            pause = Math.max(pause, appLimits.computeIfAbsent(channel.wireName() + "/" + appId,
                    k -> new DeliveryRateLimit(limits.appRate())).reserve(deliveries));
        }
        return pause;
    }
}

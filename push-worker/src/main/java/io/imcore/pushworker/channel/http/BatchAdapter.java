package io.imcore.pushworker.channel.http;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import java.net.http.HttpClient;
import java.util.List;

/**
 * Base of the adapters whose provider takes a batch of tokens in one request (Huawei, Xiaomi, OPPO): the
 * channel, the per-request limit, one {@link VendorHttp#client HTTP client}, and the edges of the {@link #send}
 * contract, so that a subclass only builds, sends and classifies its provider's request.
 */
public abstract class BatchAdapter extends FixedLimitAdapter {

    protected final ChannelSettings settings;
    protected final HttpClient http;

    protected BatchAdapter(Channel channel, int maxTargets, ChannelSettings settings) {
        super(channel, maxTargets);
        this.settings = settings;
        this.http = VendorHttp.client(settings);
    }

    /** Nothing to send: no outcomes; more than the provider takes in one request: a caller's bug, thrown. */
    @Override
    public final List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        int n = deliveries.size();
        if (n == 0) {
            return List.of();
        }
        if (n > maxTargetsPerRequest()) {
            throw new IllegalArgumentException("at most " + maxTargetsPerRequest() + " deliveries per send, got " + n);
        }
        return sendBatch(credentials, notification, deliveries);
    }

    /** {@link #send} for 1 to {@link #maxTargetsPerRequest()} deliveries. */
    protected abstract List<Outcome> sendBatch(Credentials credentials, Notification notification,
            List<Delivery> deliveries);
}

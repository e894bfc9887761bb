package io.imcore.pushworker.channel;

import io.imcore.pushcontract.Channel;
import java.util.List;

/**
 * One provider's server push API (decisions.md section 5). The consume loop, retries, rate limits, in-flight bounds
 * and statistics are written once, outside the adapters (docs/push-worker.md); an adapter only maps the
 * notification to its provider's request, signs it with the app's credentials and classifies each target's result.
 *
 * <p>Implementations are thread-safe: {@code send} is called concurrently for different batches and apps. They keep
 * per-credentials state (HTTP/2 clients, OAuth access tokens) keyed by {@link Credentials#cacheKey()}, so a
 * re-uploaded certificate is picked up and an old one's state is dropped.
 */
public interface ChannelAdapter extends AutoCloseable {

    Channel channel();

    /** The most deliveries one {@link #send} call is given (the provider's per-request token limit). */
    int maxTargetsPerRequest();

    /**
     * Sends the notification to the deliveries (at most {@link #maxTargetsPerRequest()}) and blocks until each has
     * an outcome, within the channel's request timeout. Returns one outcome per delivery, in the same order.
     * Provider, network and credential errors are outcomes ({@link Outcome#retry}: transient or auth failures;
     * {@link Outcome#rejected}: the token is invalid for good; {@link Outcome#failed}: this message cannot go through
     * this provider at all), never exceptions.
     */
    List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries);

    @Override
    default void close() {}
}

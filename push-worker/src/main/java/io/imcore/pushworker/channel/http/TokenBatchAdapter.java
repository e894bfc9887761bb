package io.imcore.pushworker.channel.http;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import java.util.List;

/**
 * A {@link BatchAdapter} whose provider wants an access token from its auth endpoint (Huawei, OPPO): the token
 * comes from a {@link VendorTokenCache} before each batch; when none can be had, every target is retried later (the
 * endpoint may be back by then), or failed at once when the provider refused the credentials for good.
 */
public abstract class TokenBatchAdapter extends BatchAdapter {

    /** The subclass refreshes a token its provider refuses with {@link VendorTokenCache#refresh}. */
    protected final VendorTokenCache tokens = new VendorTokenCache(this::fetchToken);

    protected TokenBatchAdapter(Channel channel, int maxTargets, ChannelSettings settings) {
        super(channel, maxTargets, settings);
    }

    @Override
    protected final List<Outcome> sendBatch(Credentials credentials, Notification notification,
            List<Delivery> deliveries) {
        String token;
        try {
            token = tokens.get(credentials);
        } catch (VendorTokenCache.AuthException e) {
            return VendorHttp.all(deliveries.size(), authOutcome(e));
        }
        return sendWithToken(credentials, token, notification, deliveries);
    }

    /** {@link #sendBatch} with a valid access token. */
    protected abstract List<Outcome> sendWithToken(Credentials credentials, String token, Notification notification,
            List<Delivery> deliveries);

    /** Asks the provider's auth endpoint for a token (called by {@link #tokens}, at most once at a time per key). */
    protected abstract VendorTokenCache.Token fetchToken(Credentials credentials) throws VendorTokenCache.AuthException;

    /** The outcome of a target when no token could be had. */
    protected static Outcome authRetry(VendorTokenCache.AuthException e) {
        return Outcome.retry("auth: " + e.getMessage());
    }

    /** {@link #authRetry}, or FAILED when the provider refused the credentials for good. */
    protected static Outcome authOutcome(VendorTokenCache.AuthException e) {
        return e.permanent() ? Outcome.failed("auth: " + e.getMessage()) : authRetry(e);
    }
}

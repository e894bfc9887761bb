package io.imcore.pushworker.channel.http;

import io.imcore.pushworker.channel.Credentials;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access tokens of a provider's auth endpoint, one per {@link Credentials#cacheKey()}: fetched once by whichever
 * sender needs it first (others wait for it), reused until shortly before expiry, and refreshed once on demand when
 * the provider refuses it. A new certificate upload (new cache key) drops the previous key's token.
 */
public final class VendorTokenCache {

    /** A token and how long the provider says it is valid. */
    public record Token(String value, Duration validFor) {}

    /** Fetches a token from the provider; throws {@link AuthException} with the provider's reason when refused. */
    @FunctionalInterface
    public interface Fetcher {
        Token fetch(Credentials credentials) throws AuthException;
    }

    /**
     * The provider refused the credentials or could not be reached for a token. {@link #permanent()}: the provider
     * refused the credentials themselves (unknown app key, wrong signature, app disabled): asking again cannot help
     * before a new certificate is uploaded.
     */
    public static final class AuthException extends Exception {
        private final boolean permanent;

        public AuthException(String reason) {
            this(reason, false);
        }

        public AuthException(String reason, boolean permanent) {
            super(reason, null, false, false);
            this.permanent = permanent;
        }

        public boolean permanent() {
            return permanent;
        }
    }

    private final ConcurrentHashMap<String, Holder> holders = new ConcurrentHashMap<>();
    private final Fetcher fetcher;

    public VendorTokenCache(Fetcher fetcher) {
        this.fetcher = fetcher;
    }

    /** A valid token (cached, or fetched now). */
    public String get(Credentials credentials) throws AuthException {
        return holder(credentials).get(credentials, null);
    }

    /** A token other than {@code refused}: fetches a new one unless another sender already did. */
    public String refresh(Credentials credentials, String refused) throws AuthException {
        return holder(credentials).get(credentials, refused);
    }

    private Holder holder(Credentials credentials) {
        String key = credentials.cacheKey();
        Holder holder = holders.get(key);
        if (holder == null) {
            holder = holders.computeIfAbsent(key, k -> new Holder());
            String prefix = credentials.appId() + "/" + credentials.environment() + "/";
            holders.keySet().removeIf(k -> k.startsWith(prefix) && !k.equals(key));
        }
        return holder;
    }

    private final class Holder {
        private String value;
        private long refreshAt;

        synchronized String get(Credentials credentials, String refused) throws AuthException {
            long now = System.nanoTime();
            if (value != null && now - refreshAt < 0 && (refused == null || !refused.equals(value))) {
                return value;
            }
            Token token = fetcher.fetch(credentials);
            long validNanos = Math.max(0, token.validFor().toNanos());
            // refresh a little early: a tenth of the lifetime, at most 5 minutes
            long margin = Math.min(validNanos / 10, Duration.ofMinutes(5).toNanos());
            value = token.value();
            refreshAt = now + validNanos - margin;
            return value;
        }
    }
}

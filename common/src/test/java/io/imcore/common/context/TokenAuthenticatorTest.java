package io.imcore.common.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenAuthenticatorTest {

    /** Apps as the view and auth-service would report them, each look-up counted. */
    private static final class CountingDirectory implements IdentityDirectory {
        final Map<String, Integer> apps = new ConcurrentHashMap<>();
        final AtomicInteger lookups = new AtomicInteger();

        @Override
        public OptionalInt adminTokenVersion(String appId) {
            lookups.incrementAndGet();
            Integer version = apps.get(appId);
            return version == null ? OptionalInt.empty() : OptionalInt.of(version);
        }

        @Override
        public Optional<UserState> user(String appId, long userId) {
            return Optional.empty();
        }
    }

    @Test
    void anUnknownAppIdIsLookedUpOncePerWindowAndAnAppCreatedAfterItIsFound() {
        AtomicLong now = new AtomicLong();
        CountingDirectory directory = new CountingDirectory();
        TokenAuthenticator apps = new TokenAuthenticator(() -> null, () -> directory,
                new ExpiringCache<>(Duration.ofSeconds(5), 100, now::get));

        for (int call = 0; call < 20; call++) {
            ApiException refused = assertThrows(ApiException.class, () -> apps.knownApp("app-to-come"));
            assertEquals(ErrorCode.APP_NOT_FOUND, refused.errorCode());
            now.addAndGet(Duration.ofMillis(200).toNanos());
        }
        assertEquals(1, directory.lookups.get(), "20 calls within 4 s: one look-up");

        directory.apps.put("app-to-come", 1);
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertEquals("app-to-come", apps.knownApp("app-to-come"), "found once the window ran out");
        assertEquals(2, directory.lookups.get());
    }
}

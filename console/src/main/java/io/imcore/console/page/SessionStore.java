package io.imcore.console.page;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Sessions in this process's memory (docs/console.md: so the console runs as one replica). A session ends after
 * {@code im.console.session.idle-timeout} without a request, after {@code absolute-timeout} in any case, or at
 * sign-out. Ids and CSRF tokens are 256 random bits.
 */
@ApplicationScoped
public class SessionStore {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, ConsoleSession> sessions = new ConcurrentHashMap<>();
    private final Clock clock = Clock.systemUTC();

    @ConfigProperty(name = "im.console.session.idle-timeout")
    Duration idleTimeout;
    @ConfigProperty(name = "im.console.session.absolute-timeout")
    Duration absoluteTimeout;

    public ConsoleSession create(ConsoleSession.Role role, String appId, String secret) {
        removeExpired();
        ConsoleSession session = new ConsoleSession(randomToken(), role, appId, secret, randomToken(), clock.instant());
        sessions.put(session.id(), session);
        return session;
    }

    /** The live session of that id (and marks it used), or empty when unknown or expired. */
    public Optional<ConsoleSession> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        ConsoleSession session = sessions.get(id);
        Instant now = clock.instant();
        if (session == null) {
            return Optional.empty();
        }
        if (expired(session, now)) {
            sessions.remove(id);
            return Optional.empty();
        }
        session.touch(now);
        return Optional.of(session);
    }

    public void end(String id) {
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** Run at each new session: the map never holds more than the sessions of one timeout period. */
    private void removeExpired() {
        Instant now = clock.instant();
        sessions.values().removeIf(session -> expired(session, now));
    }

    private boolean expired(ConsoleSession session, Instant now) {
        return now.isAfter(session.lastSeen().plus(idleTimeout))
                || now.isAfter(session.createdAt().plus(absoluteTimeout));
    }

    static String randomToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}

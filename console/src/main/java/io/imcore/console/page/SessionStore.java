package io.imcore.console.page;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Signed-in sessions in this process's memory (docs/console.md: so the console runs as one replica); a session is
 * made only by a successful sign-in. It ends after {@code im.console.session.idle-timeout} without a request, after
 * {@code absolute-timeout} in any case, at sign-out, or when evicted: an account (one app's admins, or the operator)
 * keeps at most {@code max-per-account} sessions and the process {@code max-sessions}, past which the account's
 * oldest, then the least recently used of all, is ended. Ids and CSRF tokens are 256 random bits.
 */
@ApplicationScoped
public class SessionStore {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Least recently used first (access order): expiry and eviction take from the head, never scan the rest. */
    private final LinkedHashMap<String, ConsoleSession> sessions = new LinkedHashMap<>(16, 0.75f, true);
    /** Each account's session ids, the oldest first. */
    private final Map<String, ArrayDeque<String>> byAccount = new HashMap<>();
    Clock clock = Clock.systemUTC();

    @ConfigProperty(name = "im.console.session.idle-timeout")
    Duration idleTimeout;
    @ConfigProperty(name = "im.console.session.absolute-timeout")
    Duration absoluteTimeout;
    @ConfigProperty(name = "im.console.session.max-sessions")
    int maxSessions;
    @ConfigProperty(name = "im.console.session.max-per-account")
    int maxPerAccount;

    public synchronized ConsoleSession create(ConsoleSession.Role role, String appId, String secret) {
        Instant now = clock.instant();
        removeIdle(now);
        ConsoleSession session = new ConsoleSession(randomToken(), role, appId, secret, randomToken(), now);
        for (ArrayDeque<String> ids = byAccount.get(session.account()); ids != null && ids.size() >= maxPerAccount;
                ids = byAccount.get(session.account())) {
            remove(ids.peekFirst());
        }
        while (sessions.size() >= maxSessions) {
            remove(sessions.keySet().iterator().next());
        }
        sessions.put(session.id(), session);
        byAccount.computeIfAbsent(session.account(), account -> new ArrayDeque<>()).addLast(session.id());
        return session;
    }

    /** The live session of that id (and marks it used), or empty when unknown or expired. */
    public synchronized Optional<ConsoleSession> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        ConsoleSession session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (expired(session, now)) {
            remove(id);
            return Optional.empty();
        }
        session.touch(now);
        return Optional.of(session);
    }

    public synchronized void end(String id) {
        if (id != null) {
            remove(id);
        }
    }

    /** How many sessions are held (for tests). */
    synchronized int size() {
        return sessions.size();
    }

    /**
     * Removes the sessions idle for longer than the timeout: they are the head of the access order, so this stops
     * at the first one used more recently. A session past its absolute timeout but still in use is removed by
     * {@link #find}, or by this once idle.
     */
    private void removeIdle(Instant now) {
        Iterator<ConsoleSession> oldestFirst = sessions.values().iterator();
        while (oldestFirst.hasNext()) {
            ConsoleSession session = oldestFirst.next();
            if (!now.isAfter(session.lastSeen().plus(idleTimeout))) {
                return;
            }
            oldestFirst.remove();
            forget(session);
        }
    }

    private void remove(String id) {
        ConsoleSession session = sessions.remove(id);
        if (session != null) {
            forget(session);
        }
    }

    private void forget(ConsoleSession session) {
        ArrayDeque<String> ids = byAccount.get(session.account());
        ids.remove(session.id());
        if (ids.isEmpty()) {
            byAccount.remove(session.account());
        }
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

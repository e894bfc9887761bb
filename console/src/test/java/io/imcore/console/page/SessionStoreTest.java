package io.imcore.console.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SessionStoreTest {

    private final SessionStore store = new SessionStore();
    private Instant now = Instant.parse("2026-12-06T00:00:00Z");

    SessionStoreTest() {
        store.idleTimeout = Duration.ofMinutes(30);
        store.absoluteTimeout = Duration.ofHours(12);
        store.maxSessions = 3;
        store.maxPerAccount = 2;
        tick(Duration.ZERO);
    }

    @Test
    void pastTheCapTheLeastRecentlyUsedSessionEnds() {
        ConsoleSession a = admin("a");
        tick(Duration.ofMinutes(1));
        ConsoleSession b = admin("b");
        tick(Duration.ofMinutes(1));
        ConsoleSession c = admin("c");
        tick(Duration.ofMinutes(1));
        assertTrue(store.find(a.id()).isPresent(), "a used again: b is now the least recently used");

        ConsoleSession d = admin("d");
        assertEquals(3, store.size());
        assertTrue(store.find(b.id()).isEmpty(), "b was evicted");
        assertTrue(store.find(a.id()).isPresent());
        assertTrue(store.find(c.id()).isPresent());
        assertTrue(store.find(d.id()).isPresent());
    }

    @Test
    void oneAccountEvictsOnlyItsOwnOldestSession() {
        ConsoleSession other = admin("other");
        ConsoleSession first = admin("farm");
        ConsoleSession second = admin("farm");
        for (int i = 0; i < 50; i++) {
            admin("farm");
        }
        assertEquals(3, store.size(), "the account holds its two newest, the other account its one");
        assertTrue(store.find(other.id()).isPresent(), "another app's session survives one app's sign-ins");
        assertTrue(store.find(first.id()).isEmpty());
        assertTrue(store.find(second.id()).isEmpty());
    }

    @Test
    void idleSessionsAreRemovedWhenTheNextOneIsMade() {
        ConsoleSession idle = admin("a");
        tick(Duration.ofMinutes(10));
        ConsoleSession used = admin("b");
        tick(Duration.ofMinutes(25)); // idle is 35 min old, used 25
        ConsoleSession fresh = store.create(ConsoleSession.Role.OPERATOR, null, "key");

        assertEquals(2, store.size(), "the idle one was removed without being looked up");
        assertTrue(store.find(used.id()).isPresent());
        assertTrue(store.find(fresh.id()).isPresent());
        assertTrue(store.find(idle.id()).isEmpty());
    }

    @Test
    void aSessionInUseStillEndsAtItsAbsoluteTimeout() {
        ConsoleSession session = admin("a");
        for (int i = 0; i < 24; i++) {
            tick(Duration.ofMinutes(29));
            assertTrue(store.find(session.id()).isPresent(), "in use after " + (i + 1) * 29 + " min");
        }
        tick(Duration.ofMinutes(29)); // 725 min: past 12 h
        assertTrue(store.find(session.id()).isEmpty());
        assertEquals(0, store.size());
    }

    @Test
    void signOutEndsTheSession() {
        ConsoleSession session = admin("a");
        store.end(session.id());
        assertTrue(store.find(session.id()).isEmpty());
        assertEquals(0, store.size());
        admin("a");
        admin("a");
        assertEquals(2, store.size(), "the ended session no longer counts against its account");
    }

    private ConsoleSession admin(String appId) {
        return store.create(ConsoleSession.Role.ADMIN, appId, "token-" + appId);
    }

    private void tick(Duration by) {
        now = now.plus(by);
        store.clock = Clock.fixed(now, ZoneOffset.UTC);
    }
}

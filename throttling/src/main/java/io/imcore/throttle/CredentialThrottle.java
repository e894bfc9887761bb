package io.imcore.throttle;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.api.Throttled;
import io.imcore.common.store.Database;
import io.imcore.throttle.ThrottleConfig.Backoff;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Password guessing: growing delays after a few wrong passwords, per (app, account) and per (app, source address)
 * (OWASP ASVS 2.2.1, NIST SP 800-63B 5.2.2). The state is one row per key in the service's own database
 * ({@code throttle_failures}), so every replica sees the same counters. Each attempt is counted before its password
 * is checked, in one statement that also refuses it while a key is in a delay: a refused call costs no bcrypt and
 * does not count (the owner is never locked out for longer than the delay already earned), and parallel guesses
 * cannot all pass a check before any of them is counted. Unknown login names count exactly like known users.
 */
@ApplicationScoped
public class CredentialThrottle {

    public static final String ACCOUNT = "account";
    public static final String ADDRESS = "address";
    /** The metrics' limit name of an account locked until an admin unlocks it. */
    public static final String LOCKED = "locked";

    /** The failure count after this attempt: back to 1 when the last one is older than {@code forget-after}. */
    private static final String COUNT = "(case when f.last_failure_at < now() - p.forget_ms * interval '1 millisecond'"
            + " then 1 else f.failures + 1 end)";
    /**
     * Counts an attempt under each key at once, unless one of them is in a delay: then nothing is counted and no row
     * comes back. The keys in a delay are locked first, so an attempt that finds none counts under all of them. The
     * delay is judged against the clock, not the transaction's start: an attempt that waited for a parallel one's row
     * lock sees that one's {@code blocked_until} (its now(), later than this start), which is no delay.
     */
    private static final String ATTEMPT = """
            with p (k, free, first_ms, max_ms, forget_ms, lockout) as (
                     select * from unnest(?::text[], ?::int[], ?::bigint[], ?::bigint[], ?::bigint[], ?::int[])),
                 delayed as (select f.key from throttle_failures f where f.key = any(?::text[])
                             and f.blocked_until > clock_timestamp() for update)
            insert into throttle_failures as f (key, failures, last_failure_at, blocked_until)
            select p.k, 1, now(), %s from p where not exists (select 1 from delayed)
            on conflict (key) do update set
                failures = (select %s from p where p.k = f.key),
                last_failure_at = now(),
                blocked_until = (select %s from p where p.k = f.key)
            where f.blocked_until <= clock_timestamp()
            returning f.key
            """.formatted(blockedUntil("1"), COUNT, blockedUntil(COUNT));
    /**
     * The right password gives the address its attempt back; a delay that attempt started past the free failures
     * stays (only the owner of an address under that much guessing waits like the guesser).
     */
    private static final String REFUND = "update throttle_failures set failures = failures - 1, blocked_until ="
            + " case when failures - 1 <= ? then least(blocked_until, now()) else blocked_until end"
            + " where key = ? and failures > 0";

    private final Database database;
    private final ThrottleConfig config;
    private final ThrottleMetrics metrics;

    public CredentialThrottle(Database database, ThrottleConfig config, ThrottleMetrics metrics) {
        this.database = database;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * Locked for good ({@code infinity}: no delay runs out, the purge keeps the row) from the lockout-th consecutive
     * failure, else now plus the delay.
     */
    private static String blockedUntil(String count) {
        return "(case when p.lockout > 0 and " + count + " >= p.lockout then 'infinity'::timestamptz else now() + "
                + delay(count) + " end)";
    }

    /** None, then {@code first * 2^k} up to {@code max}, for the n-th failure past the free ones. */
    private static String delay(String count) {
        return "(case when " + count + " <= p.free then 0 else least(p.max_ms, p.first_ms * power(2, least("
                + count + " - p.free - 1, 40))) end) * interval '1 millisecond'";
    }

    /**
     * Counts a password attempt before the password is checked, under the account and the address at once, or
     * refuses it (10015) without counting while either is in a delay. Counting first is what makes the budget hold
     * under concurrency: of parallel guesses, only those that fit the free failures (and the one that starts the
     * delay) go on to bcrypt. The right password gives the attempt back ({@link #succeeded}).
     *
     * @param account the account's key: {@code id:<user>} for a user found, else the login name as given with its
     *        kind ({@code name:alice}), so that an unknown name counts exactly like a known one
     * @param address the client's key from {@link ClientAddress}, or null when the address is exempt
     */
    public void attempt(String route, String appId, String account, String address) {
        String accountKey = accountKey(appId, account);
        String addressKey = addressKey(appId, address);
        List<String> keys = addressKey == null ? List.of(accountKey) : List.of(accountKey, addressKey);
        List<Backoff> backoffs = addressKey == null ? List.of(config.loginAccount())
                : List.of(config.loginAccount(), config.loginAddress());
        int counted = database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement(ATTEMPT)) {
                ps.setArray(1, c.createArrayOf("text", keys.toArray()));
                ps.setArray(2, c.createArrayOf("int4", each(backoffs, Backoff::freeFailures)));
                ps.setArray(3, c.createArrayOf("int8", each(backoffs, b -> b.firstDelay().toMillis())));
                ps.setArray(4, c.createArrayOf("int8", each(backoffs, b -> b.maxDelay().toMillis())));
                ps.setArray(5, c.createArrayOf("int8", each(backoffs, b -> b.forgetAfter().toMillis())));
                ps.setArray(6, c.createArrayOf("int4", each(backoffs, Backoff::lockoutAfter)));
                ps.setArray(7, c.createArrayOf("text", keys.toArray()));
                int rows = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                    }
                }
                return rows;
            }
        });
        if (counted < keys.size()) {
            refuse(route, accountKey, addressKey);
        }
    }

    /** The answer to an attempt made while a key is in a delay (one more read: only refused calls pay it). */
    private void refuse(String route, String accountKey, String addressKey) {
        Blocked blocked = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select key, case when blocked_until = 'infinity' then -1"
                    + " else ceil(extract(epoch from blocked_until - now()) * 1000)::bigint end"
                    + " from throttle_failures where key in (?, ?) and blocked_until > now()")) {
                ps.setString(1, accountKey);
                ps.setString(2, addressKey == null ? accountKey : addressKey);
                Blocked longest = null;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long millis = rs.getLong(2);
                        if (millis < 0) {
                            return new Blocked(ACCOUNT, millis);
                        }
                        if (longest == null || millis > longest.millis()) {
                            longest = new Blocked(rs.getString(1).equals(accountKey) ? ACCOUNT : ADDRESS, millis);
                        }
                    }
                }
                return longest;
            }
        });
        if (blocked != null && blocked.millis() < 0) {
            metrics.throttled(route, LOCKED);
            // the same answer for an unknown login name: unknown names are counted and locked alike
            throw new ApiException(ErrorCode.TOO_MANY_REQUESTS, "account locked after too many failed logins:"
                    + " an admin of the app must unlock it (PUT /user/enable)");
        }
        // none left: a concurrent attempt's delay ran out between the two statements; the next try is judged again
        Blocked limit = blocked != null ? blocked : new Blocked(ACCOUNT, 1);
        metrics.throttled(route, limit.limit());
        throw new Throttled(Duration.ofMillis(limit.millis()));
    }

    /**
     * The right password: the account's counter starts again, and the address gets its attempt back (its other
     * failures stay: one good account must not clear an attacker's address).
     */
    public void succeeded(String appId, String account, String address) {
        String addressKey = addressKey(appId, address);
        database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement("delete from throttle_failures where key = ?")) {
                ps.setString(1, accountKey(appId, account));
                ps.executeUpdate();
            }
            if (addressKey != null) {
                try (PreparedStatement ps = c.prepareStatement(REFUND)) {
                    ps.setInt(1, config.loginAddress().freeFailures());
                    ps.setString(2, addressKey);
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    /** An admin's unlock: the accounts' counters and lockouts are gone (every key a login can name them by). */
    public void unlock(String appId, List<String> accounts) {
        String[] keys = accounts.stream().map(account -> accountKey(appId, account)).toArray(String[]::new);
        database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement("delete from throttle_failures where key = any(?)")) {
                ps.setArray(1, c.createArrayOf("text", keys));
                return ps.executeUpdate();
            }
        });
    }

    private static Object[] each(List<Backoff> backoffs, Function<Backoff, Object> setting) {
        return backoffs.stream().map(setting).toArray();
    }

    private static String accountKey(String appId, String account) {
        return ACCOUNT + ":" + appId + ":" + account;
    }

    private static String addressKey(String appId, String address) {
        return address == null ? null : ADDRESS + ":" + appId + ":" + address;
    }

    private record Blocked(String limit, long millis) {}
}

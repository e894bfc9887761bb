package io.imcore.common.throttle;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.common.throttle.ThrottleConfig.Backoff;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;

/**
 * Password guessing: growing delays after a few wrong passwords, per (app, login name) and per (app, source address)
 * (OWASP ASVS 2.2.1, NIST SP 800-63B 5.2.2). The state is one row per key in the service's own database
 * ({@code throttle_failures}), so every replica sees the same counters. A blocked call is refused before the
 * password is looked at: it costs one indexed read, no bcrypt, and does not count as a failure (the owner is never
 * locked out for longer than the delay already earned). Unknown login names count exactly like known ones.
 */
@ApplicationScoped
public class CredentialThrottle {

    public static final String ACCOUNT = "account";
    public static final String ADDRESS = "address";
    /** The metrics' limit name of an account locked until an admin unlocks it. */
    public static final String LOCKED = "locked";

    /** The failure count after this failure: back to 1 when the last one is older than {@code forget-after}. */
    private static final String COUNT = "(case when f.last_failure_at < now() - p.forget_ms * interval '1 millisecond'"
            + " then 1 else f.failures + 1 end)";
    private static final String FAILURE = """
            with p as (select ?::text as k, ?::int as free, ?::bigint as first_ms, ?::bigint as max_ms,
                              ?::bigint as forget_ms, ?::int as lockout)
            insert into throttle_failures as f (key, failures, last_failure_at, blocked_until)
            select p.k, 1, now(), %s from p
            on conflict (key) do update set
                failures = (select %s from p),
                last_failure_at = now(),
                blocked_until = (select %s from p)
            """.formatted(blockedUntil("1"), COUNT, blockedUntil(COUNT));

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
     * Refuses the call (10015) while the account or the address is in a delay.
     *
     * @param account the login name as the caller gave it, with its kind ({@code name:alice}, {@code id:10001})
     * @param address the client's key from {@link ClientAddress}, or null when the address is exempt
     */
    public void check(String route, String appId, String account, String address) {
        String accountKey = accountKey(appId, account);
        String addressKey = addressKey(appId, address);
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
        if (blocked != null) {
            metrics.throttled(route, blocked.limit());
            throw new Throttled(Duration.ofMillis(blocked.millis()));
        }
    }

    /** A wrong password or an unknown login name: both counters move (one round trip). */
    public void failed(String appId, String account, String address) {
        String addressKey = addressKey(appId, address);
        database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement(FAILURE)) {
                bind(ps, accountKey(appId, account), config.loginAccount());
                ps.addBatch();
                if (addressKey != null) {
                    bind(ps, addressKey, config.loginAddress());
                    ps.addBatch();
                }
                return ps.executeBatch();
            }
        });
    }

    /** The right password: the account's counter starts again (the address's does not: one good account must not
     * clear an attacker's address). */
    public void succeeded(String appId, String account) {
        database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement("delete from throttle_failures where key = ?")) {
                ps.setString(1, accountKey(appId, account));
                return ps.executeUpdate();
            }
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

    private static void bind(PreparedStatement ps, String key, Backoff backoff) throws java.sql.SQLException {
        ps.setString(1, key);
        ps.setInt(2, backoff.freeFailures());
        ps.setLong(3, backoff.firstDelay().toMillis());
        ps.setLong(4, backoff.maxDelay().toMillis());
        ps.setLong(5, backoff.forgetAfter().toMillis());
        ps.setInt(6, backoff.lockoutAfter());
    }

    private static String accountKey(String appId, String account) {
        return ACCOUNT + ":" + appId + ":" + account;
    }

    private static String addressKey(String appId, String address) {
        return address == null ? null : ADDRESS + ":" + appId + ":" + address;
    }

    private record Blocked(String limit, long millis) {}
}

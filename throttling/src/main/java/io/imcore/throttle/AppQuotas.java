package io.imcore.throttle;

import io.imcore.common.api.Throttled;
import io.imcore.common.context.ExpiringCache;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-app quotas: a shared {@link RateLimiter} bucket per (quota, app) with the configured default or the operator's
 * override for the app ({@code throttle_quotas}, read at most every {@code im.throttle.quota-override-ttl}).
 * A refusal is also remembered in this replica until its retry time: no call can succeed before it (the bucket only
 * fills with time), so a client hammering past its quota costs no database round trip.
 */
@ApplicationScoped
public class AppQuotas {

    private static final int MAX_REMEMBERED = 10_000;

    private final RateLimiter limiter;
    private final Database database;
    private final ThrottleConfig config;
    private final ThrottleMetrics metrics;
    private final ExpiringCache<String, Optional<RateLimit>> overrides;
    private final Map<String, Long> refusedUntilNanos = new ConcurrentHashMap<>();

    public AppQuotas(RateLimiter limiter, Database database, ThrottleConfig config, ThrottleMetrics metrics) {
        this.limiter = limiter;
        this.database = database;
        this.config = config;
        this.metrics = metrics;
        this.overrides = new ExpiringCache<>(config.quotaOverrideTtl(), MAX_REMEMBERED);
    }

    /** Takes one call from the app's quota, or refuses it with 10015. */
    public void consume(String quota, String route, String appId) {
        consume(quota, route, appId, 1);
    }

    /** Takes a call costing {@code units} (a send: its targets) from the app's quota, or refuses it with 10015. */
    public void consume(String quota, String route, String appId, int units) {
        String key = bucketKey(quota, appId);
        Long refusedUntil = refusedUntilNanos.get(key);
        long now = System.nanoTime();
        if (refusedUntil != null) {
            if (refusedUntil - now > 0) {
                refuse(route, Duration.ofNanos(refusedUntil - now));
            }
            refusedUntilNanos.remove(key, refusedUntil);
        }
        Optional<Duration> wait = limiter.acquire(key, effective(quota, appId), units);
        if (wait.isPresent()) {
            if (refusedUntilNanos.size() >= MAX_REMEMBERED) {
                refusedUntilNanos.clear();
            }
            // remembered at most for the override ttl, so an operator's raise reaches every replica within it
            long remember = Math.min(wait.get().toNanos(), config.quotaOverrideTtl().toNanos());
            refusedUntilNanos.put(key, now + remember);
            refuse(route, wait.get());
        }
    }

    private void refuse(String route, Duration wait) {
        metrics.throttled(route, "app");
        throw new Throttled(wait);
    }

    public boolean isKnown(String quota) {
        return config.quota().containsKey(quota);
    }

    /** The app's override, else the configured default. */
    public RateLimit effective(String quota, String appId) {
        return override(quota, appId).orElseGet(() -> defaultOf(quota));
    }

    public RateLimit defaultOf(String quota) {
        ThrottleConfig.Rate rate = config.quota().get(quota);
        if (rate == null) {
            throw new IllegalStateException("no im.throttle.quota." + quota + " configured");
        }
        return RateLimit.of(rate);
    }

    public Optional<RateLimit> override(String quota, String appId) {
        String key = quota + ":" + appId;
        Optional<RateLimit> cached = overrides.get(key);
        if (cached != null) {
            return cached;
        }
        Optional<RateLimit> stored = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select calls, period_ms, burst from throttle_quotas"
                    + " where app_id = ? and quota = ?")) {
                ps.setString(1, appId);
                ps.setString(2, quota);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new RateLimit(rs.getInt(1), Duration.ofMillis(rs.getLong(2)),
                            rs.getInt(3))) : Optional.<RateLimit>empty();
                }
            }
        });
        overrides.put(key, stored);
        return stored;
    }

    /**
     * The operator's override for one app; this replica uses it at once, the others within the override ttl. The
     * app's bucket starts full: what the old limit had used up does not hold back the new one.
     */
    public void setOverride(String quota, String appId, RateLimit limit) {
        database.inTransaction(c -> {
            emptyBucket(c, quota, appId);
            try (PreparedStatement ps = c.prepareStatement("insert into throttle_quotas (app_id, quota, calls,"
                    + " period_ms, burst) values (?, ?, ?, ?, ?) on conflict (app_id, quota) do update set"
                    + " calls = excluded.calls, period_ms = excluded.period_ms, burst = excluded.burst")) {
                ps.setString(1, appId);
                ps.setString(2, quota);
                ps.setInt(3, limit.limit());
                ps.setLong(4, limit.period().toMillis());
                ps.setInt(5, limit.burst());
                return ps.executeUpdate();
            }
        });
        forgetLocally(quota, appId, Optional.of(limit));
    }

    public void clearOverride(String quota, String appId) {
        database.inTransaction(c -> {
            emptyBucket(c, quota, appId);
            try (PreparedStatement ps = c.prepareStatement("delete from throttle_quotas where app_id = ? and quota = ?")) {
                ps.setString(1, appId);
                ps.setString(2, quota);
                return ps.executeUpdate();
            }
        });
        forgetLocally(quota, appId, Optional.empty());
    }

    private static void emptyBucket(Connection c, String quota, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("delete from throttle_buckets where key = ?")) {
            ps.setString(1, bucketKey(quota, appId));
            ps.executeUpdate();
        }
    }

    private static String bucketKey(String quota, String appId) {
        return "quota:" + quota + ":" + appId;
    }

    private void forgetLocally(String quota, String appId, Optional<RateLimit> now) {
        overrides.put(quota + ":" + appId, now);
        refusedUntilNanos.remove(bucketKey(quota, appId));
    }
}

package io.imcore.common.context;

import io.imcore.common.store.Database;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Token checks and user look-ups of the services other than auth-service: against the auth view that
 * {@code AuthViewFeed} keeps from auth-service's events. What the view does not know yet is asked of
 * auth-service ({@link IdentityClient}) and written into the view. auth-service replaces this with its tables.
 * <p>
 * Answers found are kept in memory for {@code im.auth-view.cache-ttl} (1 s): a send or a read then costs no
 * query for the caller's and the targets' state, and a revocation (password change, disable, admin-token rotation)
 * reaches this service within that time plus the view's lag. Users not found are never cached, so a user
 * registered a moment ago is found at once.
 */
@DefaultBean
@ApplicationScoped
public class AuthViewDirectory implements IdentityDirectory {

    private static final int CACHE_MAX = 200_000;

    private final Database database;
    private final IdentityClient lookup;
    private final ExpiringCache<String, Integer> appCache;
    private final ExpiringCache<String, UserState> userCache;

    public AuthViewDirectory(Database database, IdentityClient lookup,
            @ConfigProperty(name = "im.auth-view.cache-ttl", defaultValue = "1S") Duration cacheTtl) {
        this.database = database;
        this.lookup = lookup;
        this.appCache = new ExpiringCache<>(cacheTtl, CACHE_MAX);
        this.userCache = new ExpiringCache<>(cacheTtl, CACHE_MAX);
    }

    @Override
    public OptionalInt adminTokenVersion(String appId) {
        Integer cached = appCache.get(appId);
        if (cached != null) {
            return OptionalInt.of(cached);
        }
        OptionalInt found = viewOrAuthService(appId);
        found.ifPresent(version -> appCache.put(appId, version));
        return found;
    }

    private OptionalInt viewOrAuthService(String appId) {
        OptionalInt known = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select admin_token_version from auth_view_apps where app_id = ?")) {
                ps.setString(1, appId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
                }
            }
        });
        if (known.isPresent() || !lookup.enabled()) {
            return known;
        }
        IdentitySnapshot snapshot = lookup.fetch(appId, List.of());
        if (snapshot.adminTokenVersion() == null) {
            return OptionalInt.empty();
        }
        database.inTransaction(c -> {
            AuthViewStore.upsertApp(c, appId, snapshot.adminTokenVersion());
            return null;
        });
        return OptionalInt.of(snapshot.adminTokenVersion());
    }

    @Override
    public Optional<UserState> user(String appId, long userId) {
        return Optional.ofNullable(users(appId, List.of(userId)).get(userId));
    }

    @Override
    public Map<Long, UserState> users(String appId, Collection<Long> userIds) {
        Map<Long, UserState> found = new LinkedHashMap<>();
        List<Long> uncached = new ArrayList<>();
        for (long id : userIds) {
            UserState state = userCache.get(appId + ":" + id);
            if (state != null) {
                found.put(id, state);
            } else {
                uncached.add(id);
            }
        }
        if (!uncached.isEmpty()) {
            viewOrAuthService(appId, uncached).forEach((id, state) -> {
                userCache.put(appId + ":" + id, state);
                found.put(id, state);
            });
        }
        return found;
    }

    private Map<Long, UserState> viewOrAuthService(String appId, Collection<Long> userIds) {
        Map<Long, UserState> found = database.read(c -> {
            Map<Long, UserState> rows = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement("select user_id, token_version, disabled"
                    + " from auth_view_users where app_id = ? and user_id = any(?)")) {
                ps.setString(1, appId);
                ps.setArray(2, c.createArrayOf("bigint", userIds.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.put(rs.getLong(1), new UserState(rs.getInt(2), rs.getBoolean(3)));
                    }
                }
            }
            return rows;
        });
        List<Long> missing = userIds.stream().filter(id -> !found.containsKey(id)).distinct().toList();
        if (missing.isEmpty() || !lookup.enabled()) {
            return found;
        }
        IdentitySnapshot snapshot = lookup.fetch(appId, missing);
        if (snapshot.users() == null || snapshot.users().isEmpty()) {
            return found;
        }
        database.inTransaction(c -> {
            for (IdentitySnapshot.User user : snapshot.users()) {
                AuthViewStore.upsertUser(c, appId, user.userId(), user.tokenVersion(), user.disabled());
            }
            return null;
        });
        for (IdentitySnapshot.User user : snapshot.users()) {
            found.put(user.userId(), new UserState(user.tokenVersion(), user.disabled()));
        }
        return found;
    }
}

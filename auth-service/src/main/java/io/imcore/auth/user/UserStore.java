package io.imcore.auth.user;

import io.imcore.common.context.IdentityDirectory.UserState;
import io.imcore.common.store.Database;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The users table and the devices table: a user and its devices are one aggregate (a device's device_sn is handed
 * out from the user row, under its lock), so one store holds the {@link User} entity's Panache repository and the
 * {@link Device} entity's queries.
 */
@ApplicationScoped
public class UserStore implements PanacheRepositoryBase<User, Long> {

    @Inject
    Database database;

    public Optional<User> find(String appId, long userId) {
        return find("#" + User.BY_ID, appId, userId).firstResultOptional();
    }

    public Optional<User> findByLogin(String appId, LoginField field, String value) {
        return find("#" + field.query, appId, value).firstResultOptional();
    }

    /**
     * The two columns a token check needs, before every call with a user token. Plain SQL (docs/architecture.md's
     * hot reads): creating and running the named query took a quarter of a device list read's CPU (docs/benchmarks.md
     * "Java 25, reads and the first push"); no entity, so the request's session caches no user.
     */
    public Optional<UserState> state(String appId, long userId) {
        return database.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "select token_version, disabled from users where app_id = ? and user_id = ?")) {
                s.setString(1, appId);
                s.setLong(2, userId);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? Optional.of(new UserState(r.getInt(1), r.getBoolean(2))) : Optional.empty();
                }
            }
        });
    }

    /** A stored user's id and password hash: what a batch entry naming the user is checked against. */
    public record StoredLogin(long userId, String passwordHash) {}

    /**
     * The app's users among the given user names, by lower-cased name (names are unique without regard to case):
     * one select with auto-commit, no transaction held.
     */
    public Map<String, StoredLogin> byUsernames(String appId, Collection<String> lowerNames) {
        return database.read(c -> {
            try (PreparedStatement s = c.prepareStatement("select lower(username), user_id, password_hash from users"
                    + " where app_id = ? and lower(username) = any(?)")) {
                s.setString(1, appId);
                s.setArray(2, c.createArrayOf("text", lowerNames.toArray()));
                Map<String, StoredLogin> found = new HashMap<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        found.put(r.getString(1), new StoredLogin(r.getLong(2), r.getString(3)));
                    }
                }
                return found;
            }
        });
    }

    /**
     * Inserts users (name and password hash) in one statement of the caller's transaction, and cancels every later
     * statement of it (SQL state 57014) once {@code timeout} has passed. A name already taken, or taken meanwhile by a
     * registration that commits first, is skipped rather than an error: nothing aborts the transaction, so no
     * savepoint is needed. Returns the inserted users' ids by lower-cased name.
     */
    public Map<String, Long> insertNew(String appId, List<String> usernames, List<String> hashes, Duration timeout) {
        return database.inTransaction(c -> {
            try (PreparedStatement bound = c.prepareStatement("select set_config('statement_timeout', ?, true)")) {
                bound.setString(1, Long.toString(Math.max(1, timeout.toMillis())));
                bound.execute();
            }
            try (PreparedStatement insert = c.prepareStatement("insert into users (app_id, username, password_hash)"
                    + " select ?, u.username, u.hash from unnest(?::text[], ?::text[]) as u(username, hash)"
                    + " on conflict do nothing returning lower(username), user_id")) {
                insert.setString(1, appId);
                insert.setArray(2, c.createArrayOf("text", usernames.toArray()));
                insert.setArray(3, c.createArrayOf("text", hashes.toArray()));
                Map<String, Long> inserted = new HashMap<>();
                try (ResultSet r = insert.executeQuery()) {
                    while (r.next()) {
                        inserted.put(r.getString(1), r.getLong(2));
                    }
                }
                return inserted;
            }
        });
    }

    /** Locks the user row for the rest of the transaction (device registration serialises on it). */
    public User lock(long userId) {
        return findById(userId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The app's users among the given ids, by id. */
    public List<User> inApp(String appId, Collection<Long> userIds) {
        return list("#" + User.IN_APP, appId, userIds);
    }

    /** The app's users among the given ids, locked for update in id order (two callers never deadlock). */
    public List<User> lockInApp(String appId, Collection<Long> userIds) {
        return find("#" + User.IN_APP, appId, userIds).withLock(LockModeType.PESSIMISTIC_WRITE).list();
    }

    public Optional<Device> findDevice(long userId, String deviceGuid) {
        return getEntityManager().createNamedQuery(Device.BY_GUID, Device.class).setParameter(1, userId)
                .setParameter(2, deviceGuid).setMaxResults(1).getResultStream().findFirst();
    }

    /** The user's devices, by device_sn, as the device list shows them: plain SQL, as {@link #state}. */
    public List<DeviceInfo> devices(long userId) {
        return database.read(c -> {
            try (PreparedStatement s = c.prepareStatement("select device_sn, device_guid, push_token, created_at,"
                    + " last_seen_at from devices where user_id = ? order by device_sn")) {
                s.setLong(1, userId);
                List<DeviceInfo> devices = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        devices.add(new DeviceInfo(r.getInt(1), r.getString(2), r.getString(3),
                                r.getTimestamp(4).getTime(), r.getTimestamp(5).getTime()));
                    }
                }
                return devices;
            }
        });
    }

    /** The user's devices beyond the {@code keep} most recently seen ones (ties: the higher device_sn is newer). */
    public List<Device> devicesBeyond(long userId, int keep) {
        return getEntityManager().createNamedQuery(Device.MOST_RECENT_FIRST, Device.class).setParameter(1, userId)
                .setFirstResult(keep).getResultList();
    }

    public void removeDevice(Device device) {
        getEntityManager().remove(device);
    }

    /** Inserts a device of a user and flushes it. */
    public void addDevice(Device device) {
        getEntityManager().persist(device);
        getEntityManager().flush();
    }
}

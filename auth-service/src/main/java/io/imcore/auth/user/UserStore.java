package io.imcore.auth.user;

import io.imcore.common.context.IdentityDirectory.UserState;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The users table and the devices table: a user and its devices are one aggregate (a device's device_sn is handed
 * out from the user row, under its lock), so one store holds the {@link User} entity's Panache repository and the
 * {@link Device} entity's queries.
 */
@ApplicationScoped
public class UserStore implements PanacheRepositoryBase<User, Long> {

    public Optional<User> find(String appId, long userId) {
        return find("#" + User.BY_ID, appId, userId).firstResultOptional();
    }

    public Optional<User> findByLogin(String appId, LoginField field, String value) {
        return find("#" + field.query, appId, value).firstResultOptional();
    }

    /** The two columns a token check needs; no entity, so the request's session caches no user. */
    public Optional<UserState> state(String appId, long userId) {
        return getEntityManager().createNamedQuery(User.STATE, UserState.class).setParameter(1, appId)
                .setParameter(2, userId).setMaxResults(1).getResultStream().findFirst();
    }

    /** Locks the user row for the rest of the transaction (device registration serialises on it). */
    public User lock(long userId) {
        return findById(userId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The app's users among the given ids, by id. */
    public List<User> inApp(String appId, Collection<Long> userIds) {
        return list("#" + User.IN_APP, appId, userIds);
    }

    public Optional<Device> findDevice(long userId, String deviceGuid) {
        return getEntityManager().createNamedQuery(Device.BY_GUID, Device.class).setParameter(1, userId)
                .setParameter(2, deviceGuid).setMaxResults(1).getResultStream().findFirst();
    }

    /** The user's devices, by device_sn. */
    public List<Device> devices(long userId) {
        return getEntityManager().createNamedQuery(Device.OF_USER, Device.class).setParameter(1, userId)
                .getResultList();
    }

    /** Inserts a device of a user and flushes it. */
    public void addDevice(Device device) {
        getEntityManager().persist(device);
        getEntityManager().flush();
    }
}

package io.imcore.auth.store;

import io.imcore.common.context.IdentityDirectory.UserState;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class UserRepository implements PanacheRepositoryBase<User, Long> {

    /** Login names a user can be found by; user names and e-mails compare without regard to case. */
    public enum LoginField {
        USERNAME(User.BY_USERNAME),
        MOBILE(User.BY_MOBILE),
        EMAIL(User.BY_EMAIL);

        private final String query;

        LoginField(String query) {
            this.query = query;
        }
    }

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
}

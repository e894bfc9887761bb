package io.imcore.auth.store;

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
        USERNAME("lower(username) = lower(?2)"),
        MOBILE("mobile = ?2"),
        EMAIL("lower(email) = lower(?2)");

        private final String condition;

        LoginField(String condition) {
            this.condition = condition;
        }
    }

    public Optional<User> find(String appId, long userId) {
        return find("appId = ?1 and userId = ?2", appId, userId).firstResultOptional();
    }

    public Optional<User> findByLogin(String appId, LoginField field, String value) {
        return find("appId = ?1 and " + field.condition, appId, value).firstResultOptional();
    }

    /** Locks the user row for the rest of the transaction (device registration serialises on it). */
    public User lock(long userId) {
        return findById(userId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The app's users among the given ids, by id. */
    public List<User> inApp(String appId, Collection<Long> userIds) {
        return list("appId = ?1 and userId in ?2 order by userId", appId, userIds);
    }
}

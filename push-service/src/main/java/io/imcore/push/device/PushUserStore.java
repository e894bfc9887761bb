package io.imcore.push.store;

import io.imcore.push.app.TransactionLocks;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class PushUserRepository implements PanacheRepositoryBase<PushUser, PushUser.Key> {

    private final TransactionLocks locks;

    public PushUserRepository(TransactionLocks locks) {
        this.locks = locks;
    }

    public boolean pushDisabled(String appId, long userId) {
        return findByIdOptional(new PushUser.Key(appId, userId)).map(user -> user.pushDisabled).orElse(false);
    }

    /** Sets the user's opt-out, inserting the user's row on the first change. */
    public void setPushDisabled(String appId, long userId, boolean disabled) {
        // two first changes of one user at once would both insert: the second waits here and then finds the row
        locks.acquire("push_users:" + appId + ":" + userId);
        PushUser user = findById(new PushUser.Key(appId, userId));
        if (user == null) {
            user = new PushUser();
            user.appId = appId;
            user.userId = userId;
            user.pushDisabled = disabled;
            persist(user);
        } else {
            user.pushDisabled = disabled;
        }
    }
}

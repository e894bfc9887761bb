package io.imcore.push.device;

import io.imcore.push.app.TransactionLocks;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A user as the push registry knows it: the user's opt-out ({@code push_users}, entity {@link PushUser}) and tags
 * ({@code push_user_tags}, entity {@link PushUserTag}); the Panache repository of both.
 */
@ApplicationScoped
public class PushUserStore implements PanacheRepositoryBase<PushUser, PushUser.Key> {

    /** Code-point order, as PostgreSQL's "C" collation sorts UTF-8 text (String.compareTo compares UTF-16 units). */
    private static final Comparator<String> CODE_POINT_ORDER =
            (a, b) -> Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());

    private final TransactionLocks locks;

    public PushUserStore(TransactionLocks locks) {
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

    /** The user's tags in code-point order. */
    public List<String> tags(String appId, long userId) {
        return getEntityManager().createQuery("from PushUserTag t where t.appId = ?1 and t.userId = ?2",
                        PushUserTag.class)
                .setParameter(1, appId).setParameter(2, userId).getResultStream().map(t -> t.tag)
                .sorted(CODE_POINT_ORDER).toList();
    }

    /** Serialises the changes of one user's tags, so that two concurrent adds cannot pass the limit together. */
    public void lockTags(String appId, long userId) {
        locks.acquire("push_user_tags:" + appId + ":" + userId);
    }

    /** Adds the tags (those the user has already stay as they are); returns how many tags the user has now. */
    public int addTags(String appId, long userId, Collection<String> tags) {
        Set<String> all = new LinkedHashSet<>(tags(appId, userId));
        for (String tag : tags) {
            if (all.add(tag)) {
                PushUserTag row = new PushUserTag();
                row.appId = appId;
                row.tag = tag;
                row.userId = userId;
                getEntityManager().persist(row);
            }
        }
        return all.size();
    }

    public void removeTags(String appId, long userId, Collection<String> tags) {
        getEntityManager().createQuery("delete from PushUserTag t where t.appId = ?1 and t.userId = ?2"
                        + " and t.tag in ?3")
                .setParameter(1, appId).setParameter(2, userId).setParameter(3, tags).executeUpdate();
    }
}

package io.imcore.push.store;

import io.imcore.push.app.TransactionLocks;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

@ApplicationScoped
public class PushUserTagRepository implements PanacheRepositoryBase<PushUserTag, PushUserTag.Key> {

    /** Code-point order, as PostgreSQL's "C" collation sorts UTF-8 text (String.compareTo compares UTF-16 units). */
    private static final Comparator<String> CODE_POINT_ORDER =
            (a, b) -> Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());

    private final TransactionLocks locks;

    public PushUserTagRepository(TransactionLocks locks) {
        this.locks = locks;
    }

    /** The user's tags in code-point order. */
    public List<String> tags(String appId, long userId) {
        return list("appId = ?1 and userId = ?2", appId, userId).stream().map(t -> t.tag).sorted(CODE_POINT_ORDER)
                .toList();
    }

    /** Serialises the changes of one user's tags, so that two concurrent adds cannot pass the limit together. */
    public void lock(String appId, long userId) {
        locks.acquire("push_user_tags:" + appId + ":" + userId);
    }

    /** Adds the tags (those the user has already stay as they are); returns how many tags the user has now. */
    public int add(String appId, long userId, Collection<String> tags) {
        Set<String> all = new LinkedHashSet<>(tags(appId, userId));
        for (String tag : tags) {
            if (all.add(tag)) {
                PushUserTag row = new PushUserTag();
                row.appId = appId;
                row.tag = tag;
                row.userId = userId;
                persist(row);
            }
        }
        return all.size();
    }

    public void remove(String appId, long userId, Collection<String> tags) {
        delete("appId = ?1 and userId = ?2 and tag in ?3", appId, userId, tags);
    }
}

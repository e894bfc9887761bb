package io.imcore.push.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;

@ApplicationScoped
public class PushTaskRepository implements PanacheRepositoryBase<PushTask, Long> {

    /** The app's tasks among the ids, in id order; unknown and foreign ids are left out. */
    public List<PushTask> ofApp(String appId, Collection<Long> taskIds) {
        return list("appId = ?1 and taskId in ?2 order by taskId", appId, taskIds);
    }

    /** The tasks' counters per channel. */
    public List<PushTaskCount> counts(Collection<Long> taskIds) {
        return getEntityManager().createQuery("from PushTaskCount c where c.taskId in ?1", PushTaskCount.class)
                .setParameter(1, taskIds).getResultList();
    }

    /** The tasks' failure reasons, per task the largest count first. */
    public List<PushTaskFailure> failures(Collection<Long> taskIds) {
        return getEntityManager().createQuery("from PushTaskFailure f where f.taskId in ?1"
                + " order by f.taskId, f.count desc, f.channel, f.outcome, f.reason", PushTaskFailure.class)
                .setParameter(1, taskIds).getResultList();
    }
}

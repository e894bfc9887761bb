package io.imcore.push.app;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;

/** Push switched on or off per app ({@code push_apps}, entity {@link PushApp}); an app without a row has push off. */
@ApplicationScoped
public class PushAppStore implements PanacheRepositoryBase<PushApp, String> {

    private final TransactionLocks locks;

    public PushAppStore(TransactionLocks locks) {
        this.locks = locks;
    }

    /**
     * One select: joins the caller's transaction, and outside one reads with auto-commit (no BEGIN/COMMIT). The column
     * alone, not the entity: outside a transaction this runs on the request's session, which would hand a later call
     * in the same request the entity it cached instead of the row as it is now.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean isEnabled(String appId) {
        return getEntityManager().createQuery("select a.pushEnabled from PushApp a where a.appId = ?1", Boolean.class)
                .setParameter(1, appId).getResultStream().findFirst().orElse(false);
    }

    /** Switches push on or off, inserting the app's row on its first switch. */
    @Transactional
    public void setEnabled(String appId, boolean enabled) {
        // an app switched before (the usual case): one update, without the lock and the select of its row
        if (update("pushEnabled = ?1, updatedAt = ?2 where appId = ?3", enabled, Instant.now(), appId) > 0) {
            return;
        }
        // two first switches of one app at once would both insert: the second waits here and then finds the row
        locks.acquire("push_apps:" + appId);
        PushApp app = findById(appId);
        boolean first = app == null;
        if (first) {
            app = new PushApp();
            app.appId = appId;
        }
        app.pushEnabled = enabled;
        app.updatedAt = Instant.now();
        if (first) {
            persist(app);
        }
    }
}

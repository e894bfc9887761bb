package io.imcore.push.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

@ApplicationScoped
public class PushAppRepository implements PanacheRepositoryBase<PushApp, String> {

    private final TransactionLocks locks;

    public PushAppRepository(TransactionLocks locks) {
        this.locks = locks;
    }

    public boolean isEnabled(String appId) {
        return findByIdOptional(appId).map(app -> app.pushEnabled).orElse(false);
    }

    /** Switches push on or off, inserting the app's row on its first switch. */
    public void switchTo(String appId, boolean enabled) {
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

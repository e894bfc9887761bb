package io.imcore.push.app;

import io.imcore.push.store.PushAppRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/** Push switched on or off per app ({@code push_apps}, entity {@code PushApp}); an app without a row has push off. */
@ApplicationScoped
public class PushApps {

    private final PushAppRepository apps;

    public PushApps(PushAppRepository apps) {
        this.apps = apps;
    }

    /** One select: joins the caller's transaction, and outside one reads with auto-commit (no BEGIN/COMMIT). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean isEnabled(String appId) {
        return apps.isEnabled(appId);
    }

    @Transactional
    public void setEnabled(String appId, boolean enabled) {
        apps.switchTo(appId, enabled);
    }
}

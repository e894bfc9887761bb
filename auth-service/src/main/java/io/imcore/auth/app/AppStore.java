package io.imcore.auth.app;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** The apps table: the {@link App} entity's Panache repository. */
@ApplicationScoped
public class AppStore implements PanacheRepositoryBase<App, String> {

    public OptionalInt adminTokenVersion(String appId) {
        return findByIdOptional(appId).map(app -> OptionalInt.of(app.adminTokenVersion)).orElse(OptionalInt.empty());
    }

    /** Locks the app row for the rest of the transaction: rotations of one app run one at a time. */
    public Optional<App> lock(String appId) {
        return findByIdOptional(appId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** Every app, oldest first (an operator runs a handful of apps, so the list is not paged). */
    public List<App> oldestFirst() {
        return list("#" + App.OLDEST_FIRST);
    }
}

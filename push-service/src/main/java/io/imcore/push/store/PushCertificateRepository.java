package io.imcore.push.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

@ApplicationScoped
public class PushCertificateRepository implements PanacheRepositoryBase<PushCertificate, PushCertificate.Key> {

    /** The app's certificate of this name (a token binding's notifier_name). */
    public Optional<PushCertificate> findByName(String appId, String name) {
        return find("appId = ?1 and name = ?2", appId, name).firstResultOptional();
    }
}

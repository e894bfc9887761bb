package io.imcore.push.certificate;

import io.imcore.pushcontract.CertificateSecrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** The certificate key set of this service's configuration, shared by the store and the re-encryption job. */
@ApplicationScoped
public class CertificateKeys {

    @Produces
    @Singleton
    CertificateSecrets certificateSecrets(Config config) {
        return CertificateSecrets.fromConfig(config);
    }
}

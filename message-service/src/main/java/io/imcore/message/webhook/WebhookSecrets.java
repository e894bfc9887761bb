package io.imcore.message.webhook;

import io.imcore.common.security.SecretBox;
import io.imcore.common.store.Database;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.jboss.logging.Logger;

/**
 * The apps' webhook signing secrets at rest: sealed with AES-256-GCM under {@value #KEY_SETTING} (common's
 * {@link SecretBox}), bound to the app's row, so a database dump or a copied value does not sign anything. Every
 * replica must sign, so the secret cannot be hashed; without the key the service does not start.
 */
@Singleton
public class WebhookSecrets {

    static final String KEY_SETTING = "im.webhooks.secret-key";
    private static final Logger LOG = Logger.getLogger(WebhookSecrets.class);

    private final SecretBox box;
    private final Database database;

    public WebhookSecrets(WebhookConfig config, Database database) {
        this.box = new SecretBox(KEY_SETTING, config.secretKey().orElse(null));
        this.database = database;
    }

    public byte[] seal(String secret, String appId) {
        return box.seal(secret, context(appId));
    }

    /** @throws IllegalArgumentException when the value does not open with the configured key for this app */
    public String open(byte[] sealed, String appId) {
        return box.open(sealed, context(appId));
    }

    /** Seals the secrets stored in clear before migration V14, once, at start-up. */
    void sealClearSecrets(@Observes StartupEvent event) {
        int sealed = database.inTransaction(c -> {
            int count = 0;
            try (PreparedStatement select = c.prepareStatement(
                    "select app_id, secret from webhook_endpoints where secret is not null for update");
                    PreparedStatement update = c.prepareStatement(
                            "update webhook_endpoints set secret_sealed = ?, secret = null where app_id = ?");
                    ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    update.setBytes(1, seal(rs.getString(2), rs.getString(1)));
                    update.setString(2, rs.getString(1));
                    update.addBatch();
                    count++;
                }
                update.executeBatch();
            }
            return count;
        });
        if (sealed > 0) {
            LOG.infof("webhook secrets: %d stored in clear sealed under %s", sealed, KEY_SETTING);
        }
    }

    private static String context(String appId) {
        return "webhook_endpoints/secret/" + appId;
    }
}

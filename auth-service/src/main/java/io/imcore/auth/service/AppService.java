package io.imcore.auth.service;

import io.imcore.auth.api.Dtos.AppCredentials;
import io.imcore.auth.api.Dtos.AppList;
import io.imcore.auth.store.AppStore;
import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.Outbox;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.util.OptionalInt;

/** Apps are created by the operator; each has one valid admin token at a time. */
@ApplicationScoped
public class AppService {

    private static final char[] ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789".toCharArray();
    private static final int APP_ID_LENGTH = 16;

    private final SecureRandom random = new SecureRandom();
    private final Database database;
    private final AppStore apps;
    private final Outbox outbox;
    private final TokenIssuer issuer;

    public AppService(Database database, AppStore apps, Outbox outbox, TokenIssuer issuer) {
        this.database = database;
        this.apps = apps;
        this.outbox = outbox;
        this.issuer = issuer;
    }

    public AppCredentials create(String name) {
        String appId = newAppId();
        String label = name == null || name.isBlank() ? appId : name.strip();
        database.inTransaction(c -> {
            apps.insert(c, appId, label);
            outbox.append(c, AuthEvent.TOPIC, appId, AuthEvent.app(AuthEvent.APP_CREATED, appId, 1));
            return null;
        });
        return new AppCredentials(appId, issuer.adminToken(appId, 1).token());
    }

    /** Issues a new admin token; the previous one stops working at once. */
    public AppCredentials rotateAdminToken(String appId) {
        if (appId == null || appId.isBlank()) {
            throw new ApiException(ErrorCode.APP_NOT_FOUND, "app_id header missing");
        }
        int version = database.inTransaction(c -> {
            OptionalInt rotated = apps.rotateAdminToken(c, appId);
            if (rotated.isEmpty()) {
                throw new ApiException(ErrorCode.APP_NOT_FOUND);
            }
            outbox.append(c, AuthEvent.TOPIC, appId,
                    AuthEvent.app(AuthEvent.APP_ADMIN_TOKEN_ROTATED, appId, rotated.getAsInt()));
            return rotated.getAsInt();
        });
        return new AppCredentials(appId, issuer.adminToken(appId, version).token());
    }

    public AppList list() {
        return new AppList(database.read(apps::list));
    }

    private String newAppId() {
        char[] id = new char[APP_ID_LENGTH];
        for (int i = 0; i < id.length; i++) {
            id[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return new String(id);
    }
}

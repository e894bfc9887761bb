package io.imcore.auth.app;

import io.imcore.auth.event.AuthEvents;
import io.imcore.auth.token.TokenIssuer;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.events.AuthEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.security.SecureRandom;

/** Apps are created by the operator; each has one valid admin token at a time. */
@ApplicationScoped
public class AppService {

    private static final char[] ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789".toCharArray();
    private static final int APP_ID_LENGTH = 16;

    private final SecureRandom random = new SecureRandom();
    private final AppStore apps;
    private final AuthEvents events;
    private final TokenIssuer issuer;

    public AppService(AppStore apps, AuthEvents events, TokenIssuer issuer) {
        this.apps = apps;
        this.events = events;
        this.issuer = issuer;
    }

    @Transactional
    public AppCredentials create(String name) {
        App app = new App();
        app.appId = newAppId();
        app.name = name == null ? app.appId : name.strip(); // a blank name is refused by CreateAppRequest
        apps.persist(app);
        events.publish(AuthEvent.app(AuthEvent.APP_CREATED, app.appId, app.adminTokenVersion));
        return new AppCredentials(app.appId, issuer.adminToken(app.appId, app.adminTokenVersion).token());
    }

    /** Issues a new admin token; the previous one stops working at once. */
    @Transactional
    public AppCredentials rotateAdminToken(String appId) {
        if (appId == null || appId.isBlank()) {
            throw new ApiException(ErrorCode.APP_NOT_FOUND, "app_id header missing");
        }
        App app = apps.lock(appId).orElseThrow(() -> new ApiException(ErrorCode.APP_NOT_FOUND));
        app.adminTokenVersion++;
        events.publish(AuthEvent.app(AuthEvent.APP_ADMIN_TOKEN_ROTATED, appId, app.adminTokenVersion));
        return new AppCredentials(appId, issuer.adminToken(appId, app.adminTokenVersion).token());
    }

    @Transactional
    public AppList list() {
        return new AppList(apps.oldestFirst().stream()
                .map(app -> new AppSummary(app.appId, app.name, app.adminTokenVersion, app.createdAt.toEpochMilli()))
                .toList());
    }

    private String newAppId() {
        char[] id = new char[APP_ID_LENGTH];
        for (int i = 0; i < id.length; i++) {
            id[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return new String(id);
    }
}

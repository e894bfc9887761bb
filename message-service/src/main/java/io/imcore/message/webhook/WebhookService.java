package io.imcore.message.webhook;

import io.imcore.common.api.ApiException;
import io.imcore.common.security.PublicAddresses;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/** POST and GET /app/webhook and the delivery log: the checks of an app's settings, then its store. */
@ApplicationScoped
public class WebhookService {

    static final int DEFAULT_HOOK_TIMEOUT_MS = 500;
    static final int MAX_HOOK_TIMEOUT_MS = 2_000;
    static final int MAX_BATCH = 100;
    static final int MAX_URL_LENGTH = 2_000;
    static final int MAX_LOG_PAGE = 100;

    private final Database database;
    private final WebhookEndpointStore endpoints;
    private final DeliveryStore deliveries;
    private final WebhookConfig config;
    private final Event<WebhookEndpointSaved> saved;

    public WebhookService(Database database, WebhookEndpointStore endpoints, DeliveryStore deliveries,
            WebhookConfig config, Event<WebhookEndpointSaved> saved) {
        this.saved = saved;
        this.database = database;
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.config = config;
    }

    /** Saves the app's settings with a new secret, which is returned (and never again in full). */
    public String save(String appId, WebhookSettings body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        String url = checkUrl(body.url());
        List<String> events = body.events() == null ? List.of() : List.copyOf(body.events());
        for (String event : events) {
            if (event == null || !WebhookEvents.SUBSCRIBABLE.contains(event)) {
                throw ApiException.badParameter("events", "unknown event type " + event + "; known: "
                        + WebhookEvents.SUBSCRIBABLE);
            }
        }
        int timeout = body.hookTimeoutMs() == null ? DEFAULT_HOOK_TIMEOUT_MS : body.hookTimeoutMs();
        if (timeout < 1 || timeout > MAX_HOOK_TIMEOUT_MS) {
            throw ApiException.badParameter("hook_timeout_ms", "must be 1 to " + MAX_HOOK_TIMEOUT_MS);
        }
        int batch = body.batchSize() == null ? 1 : body.batchSize();
        if (batch < 1 || batch > MAX_BATCH) {
            throw ApiException.badParameter("batch_size", "must be 1 to " + MAX_BATCH);
        }
        String secret = WebhookSignature.newSecret();
        WebhookEndpoint endpoint = new WebhookEndpoint(appId, url, events, Boolean.TRUE.equals(body.beforeSend()),
                timeout, body.hookFailOpen() == null || body.hookFailOpen(), batch, secret, null, null);
        database.inTransaction(c -> {
            endpoints.save(c, endpoint);
            deliveries.dueNow(c, appId);
            return null;
        });
        saved.fire(new WebhookEndpointSaved(appId));
        return secret;
    }

    /** The app's settings, secret masked; null when it has none. */
    public WebhookView read(String appId) {
        return database.read(c -> endpoints.find(c, appId)).map(WebhookView::of).orElse(null);
    }

    public List<DeliveryStore.LogEntry> log(String appId, long beforeId, int limit) {
        return database.read(c -> deliveries.log(c, appId, beforeId, limit));
    }

    public boolean resend(String appId, long id) {
        boolean queued = database.autoCommit(c -> deliveries.resend(c, appId, id));
        if (!queued) {
            throw ApiException.badParameter("id", "no such delivery in this app");
        }
        return true;
    }

    /** An absolute http(s) URL whose host resolves to public addresses only (loopback too when configured). */
    private String checkUrl(String url) {
        if (url == null || url.isBlank()) {
            throw ApiException.badParameter("url", "required");
        }
        if (url.length() > MAX_URL_LENGTH) {
            throw ApiException.badParameter("url", "longer than " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw ApiException.badParameter("url", "not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw ApiException.badParameter("url", "must be an absolute http or https URL");
        }
        if (!allowedHost(uri.getHost())) {
            throw ApiException.badParameter("url", "the host is not a public address");
        }
        return url;
    }

    /** Whether requests may go to {@code host} now (it is checked again before each delivery: DNS may change). */
    boolean allowedHost(String host) {
        try {
            return PublicAddresses.allPublic(host, config.loopbackAllowed());
        } catch (UnknownHostException e) {
            throw ApiException.badParameter("url", "unknown host");
        }
    }
}

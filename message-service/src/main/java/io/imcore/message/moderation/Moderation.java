package io.imcore.message.moderation;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.concurrent.NonBlockingAttempt;
import io.imcore.common.context.ExpiringCache;
import io.imcore.common.security.PublicAddresses;
import io.imcore.common.store.Database;
import io.imcore.message.conversation.ContentType;
import io.imcore.message.send.request.SendRequest;
import io.imcore.message.webhook.WebhookConfig;
import io.imcore.message.webhook.WebhookEndpoint;
import io.imcore.message.webhook.WebhookEndpointSaved;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;

/**
 * What an app lets its users send (docs/webhooks.md): its word filter first (refuse with 21001, or mask), then its
 * before-send hook. An app with neither costs one look-up in memory ({@code im.webhooks.cache-ttl}).
 */
@ApplicationScoped
public class Moderation {

    private final Database database;
    private final WordFilterStore store;
    private final BeforeSendHook hook;
    private final WebhookConfig config;
    private final ExpiringCache<String, ModerationSettings> settings;

    public Moderation(Database database, WordFilterStore store, BeforeSendHook hook, WebhookConfig config) {
        this.database = database;
        this.store = store;
        this.hook = hook;
        this.config = config;
        this.settings = new ExpiringCache<>(config.cacheTtl(), 100_000);
    }

    /**
     * The user's message as the app lets it be stored: the same request when nothing applies (a completed future),
     * a masked or replaced one, or a failure (21001, 21002). Whatever would block (a cache miss's read) comes before
     * the hook's call, so a {@link NonBlockingAttempt} that stops here has called nothing; the future completes on
     * the HTTP client's thread when the hook is called.
     */
    public CompletableFuture<SendRequest> moderate(String appId, long sender, SendRequest request) {
        ModerationSettings app = settings(appId);
        if (app.none()) {
            return CompletableFuture.completedFuture(request);
        }
        SendRequest filtered = app.filter() == null ? request : filter(app.filter(), request);
        if (app.hook() == null) {
            return CompletableFuture.completedFuture(filtered);
        }
        // the HTTP client may resolve and connect on the calling thread: never on the event loop
        NonBlockingAttempt.refuseBlocking();
        return hook.decide(app.hook(), app.hookAddressAllowed(), sender, filtered);
    }

    /**
     * The new text of an edited message as the app's word filter lets it be stored: the same, masked, or 21001. The
     * before-send hook is not called: its event describes a send (docs/webhooks.md). Reads the app's settings
     * (cached).
     */
    public String filterEdit(String appId, String content) {
        WordFilter filter = settings(appId).filter();
        return filter == null ? content : filtered(filter, content);
    }

    /** This replica forgets what it holds of the app at once; the others within {@code im.webhooks.cache-ttl}. */
    void forget(@Observes WebhookEndpointSaved saved) {
        settings.remove(saved.appId());
    }

    void forget(String appId) {
        settings.remove(appId);
    }

    /** The filter applies to text messages' content. */
    private static SendRequest filter(WordFilter filter, SendRequest request) {
        if (request.contentType() != ContentType.TEXT.ordinal() || request.content() == null) {
            return request;
        }
        String allowed = filtered(filter, request.content());
        return allowed.equals(request.content()) ? request : new SendRequest(request.contentType(), allowed,
                request.attachment(), request.config(), request.ext(), request.fromUserId(), request.targets(),
                request.type(), request.transactionId());
    }

    /** A text as the filter lets it be stored: refused (21001) or masked. */
    private static String filtered(WordFilter filter, String content) {
        if (filter.action() == WordFilter.Action.REFUSE) {
            if (filter.matches(content)) {
                throw new ApiException(ErrorCode.MESSAGE_REFUSED, "content: contains a word the app does not allow");
            }
            return content;
        }
        return filter.mask(content);
    }

    private ModerationSettings settings(String appId) {
        ModerationSettings cached = settings.get(appId);
        if (cached != null) {
            return cached;
        }
        NonBlockingAttempt.refuseBlocking();
        WordFilterStore.ForSends read = database.read(c -> store.forSends(c, appId));
        WordFilter filter = read.filter() == null ? null : new WordFilter(read.filter().action(), read.filter().words());
        WebhookEndpoint hookEndpoint = read.hook();
        ModerationSettings loaded = filter == null && hookEndpoint == null ? ModerationSettings.NONE
                : new ModerationSettings(filter, hookEndpoint, hookEndpoint != null && addressAllowed(hookEndpoint));
        settings.put(appId, loaded);
        return loaded;
    }

    private boolean addressAllowed(WebhookEndpoint endpoint) {
        try {
            return PublicAddresses.allPublic(URI.create(endpoint.url()).getHost(), config.loopbackAllowed());
        } catch (UnknownHostException | IllegalArgumentException e) {
            return false;
        }
    }
}

package io.imcore.pushworker.channel.apns;

import com.eatthepath.pushy.apns.ApnsClient;
import com.eatthepath.pushy.apns.ApnsClientBuilder;
import com.eatthepath.pushy.apns.DeliveryPriority;
import com.eatthepath.pushy.apns.PushNotificationResponse;
import com.eatthepath.pushy.apns.PushType;
import com.eatthepath.pushy.apns.auth.ApnsSigningKey;
import com.eatthepath.pushy.apns.util.SimpleApnsPushNotification;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.FanOutAdapter;
import io.imcore.pushworker.channel.http.VendorHttp;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The ios channel: APNs' HTTP/2 provider API through Pushy (docs/channels/apns.md).
 *
 * <p>One {@link ApnsClient} per credentials version ({@link Credentials#cacheKey()}); a newer upload of the same
 * app and environment replaces and closes the older client. Token auth when the certificate is a PEM private key
 * (Pushy signs and renews the ES256 JWT), else certificate auth with the base64 PKCS#12 and app_secret as its
 * password. Every token of a call is one HTTP/2 request; at most {@code maxConcurrentRequests} are in flight.
 */
public class ApnsAdapter extends FanOutAdapter {

    private static final Logger LOG = Logger.getLogger(ApnsAdapter.class);

    /** Reasons that mean the token is not valid (any more) for this app: it is unbound. */
    static final Set<String> TOKEN_REASONS =
            Set.of("BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic", "ExpiredToken");

    private final ChannelSettings settings;
    private final EventLoopGroup eventLoopGroup =
            new NioEventLoopGroup(2, new DefaultThreadFactory("apns-client", true));
    /** Clients (or the error building them) by credentials cache key. */
    private final Map<String, Client> clients = new ConcurrentHashMap<>();
    /** The newest credentials version seen per app and environment, to close replaced clients. */
    private final Map<String, Client> current = new ConcurrentHashMap<>();

    private record Client(String cacheKey, long version, ApnsClient client, String topic, String error) {}

    /**
     * How many request-timeouts a request handed to Pushy may stay unanswered before it is a RETRY. Pushy cannot take
     * a request back: one still queued for a connection or written is sent and answered later, so a RETRY after one
     * request-timeout sent it twice (the first requests of a cold start wait behind the first connection: 256 tokens
     * twice per cold push.sh). Pushy fails a request itself when its connection fails or closes; this bound is for a
     * server that holds a stream open without answering, whose requests may then reach the device twice.
     */
    private static final int UNANSWERED_TIMEOUTS = 6;

    public ApnsAdapter(ChannelSettings settings) {
        super(Channel.APNS);
        this.settings = settings;
    }

    @Override
    public List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        int n = deliveries.size();
        Client client = client(credentials);
        if (client.error() != null) {
            return VendorHttp.all(n, Outcome.retry(client.error()));
        }
        boolean background = notification.isPassThrough();
        PushType pushType = background ? PushType.BACKGROUND : PushType.ALERT;
        DeliveryPriority priority = background ? DeliveryPriority.CONSERVE_POWER : DeliveryPriority.IMMEDIATE;
        // apns-collapse-id: the push's own ios_collapse_id wins, else the conversation's collapse_key
        String collapseId = Notification.text(notification.ios(), "ios_collapse_id");
        if (collapseId == null) {
            collapseId = notification.collapseKey();
        }
        // Pushy writes apns-expiration as a 32-bit int: later times are capped (2038; far beyond any real task)
        Instant expiration = notification.message().hasNonNull("show_end_time")
                ? Instant.ofEpochSecond(Math.min(Integer.MAX_VALUE,
                        Math.max(0, notification.message().path("show_end_time").asLong())))
                // without an expiration Pushy sends 0 (try once, never store): keep it for a day instead
                : Instant.now().plus(SimpleApnsPushNotification.DEFAULT_EXPIRATION_PERIOD);
        Map<Integer, String> payloads = new HashMap<>();
        long timeoutMillis = settings.requestTimeout().toMillis();
        Semaphore inFlight = new Semaphore(Math.max(1, settings.maxConcurrentRequests()));
        List<CompletableFuture<Outcome>> futures = new ArrayList<>(n);
        for (Delivery delivery : deliveries) {
            Integer badge = background ? null : delivery.badge();
            String payload = payloads.computeIfAbsent(badge, b -> ApnsPayload.build(notification, b));
            futures.add(sendOne(client, inFlight, timeoutMillis, new SimpleApnsPushNotification(
                    delivery.token(), client.topic(), payload, expiration, priority, pushType, collapseId)));
        }
        List<Outcome> outcomes = joinAll(futures);
        dropIfStale(credentials, client);
        return outcomes;
    }

    /** A call with credentials older than the newest seen for the app built a client nobody keeps: close it. */
    private void dropIfStale(Credentials credentials, Client client) {
        Client newest = current.get(credentials.appId() + "/" + credentials.environment());
        if (newest != null && newest.version() > client.version() && clients.remove(client.cacheKey(), client)
                && client.client() != null) {
            client.client().close();
        }
    }

    private CompletableFuture<Outcome> sendOne(Client client, Semaphore inFlight, long timeoutMillis,
            SimpleApnsPushNotification push) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        try {
            if (!inFlight.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
                outcome.complete(Outcome.retry("timeout waiting for a request slot"));
                return outcome;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome.complete(Outcome.retry("interrupted"));
            return outcome;
        }
        outcome.whenComplete((o, e) -> inFlight.release());
        try {
            client.client().sendNotification(push).whenComplete((response, error) ->
                    outcome.complete(error != null ? failure(error) : classify(response)));
        } catch (RuntimeException e) {
            outcome.complete(failure(e));
        }
        return outcome.completeOnTimeout(Outcome.retry("no answer"), timeoutMillis * UNANSWERED_TIMEOUTS,
                TimeUnit.MILLISECONDS);
    }

    static Outcome classify(PushNotificationResponse<?> response) {
        if (response.isAccepted()) {
            return Outcome.ACCEPTED;
        }
        int status = response.getStatusCode();
        String reason = response.getRejectionReason().orElse("HTTP " + status);
        if (status == 410 || TOKEN_REASONS.contains(reason)) {
            return Outcome.rejected(reason);
        }
        if (status == 429 || status >= 500) {
            return Outcome.retry(reason);
        }
        if (status == 403) {
            return Outcome.retry("credentials refused: " + reason);
        }
        // other 4xx (PayloadTooLarge, BadTopic, TopicDisallowed, BadCollapseId, ...): the message or the
        // certificate's topic is wrong, not the token: failed for good, the token kept
        return Outcome.failed("message refused: " + reason);
    }

    private static Outcome failure(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        return Outcome.retry("connection: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : " " + cause.getMessage()));
    }

    private Client client(Credentials credentials) {
        Client client = clients.computeIfAbsent(credentials.cacheKey(), key -> build(credentials));
        String slot = credentials.appId() + "/" + credentials.environment();
        Client[] replaced = new Client[1];
        current.compute(slot, (s, previous) -> {
            if (previous == null || previous.version() < client.version()) {
                replaced[0] = previous;
                return client;
            }
            return previous;
        });
        if (replaced[0] != null && !replaced[0].cacheKey().equals(client.cacheKey())) {
            Client old = clients.remove(replaced[0].cacheKey());
            if (old != null && old.client() != null) {
                old.client().close();
            }
        }
        return client;
    }

    private Client build(Credentials credentials) {
        String key = credentials.cacheKey();
        String appId = credentials.providerAppId() == null ? "" : credentials.providerAppId();
        int dot = appId.indexOf('.');
        String certificate = credentials.certificate() == null ? "" : credentials.certificate();
        boolean tokenAuth = certificate.contains("PRIVATE KEY-----");
        try {
            URI base = settings.baseUrl(credentials.environment());
            ApnsClientBuilder builder = new ApnsClientBuilder()
                    .setApnsServer(base.getHost(), base.getPort() > 0 ? base.getPort() : 443)
                    .setEventLoopGroup(eventLoopGroup)
                    .setUseAlpn(true) // APNs negotiates h2 by ALPN too; servers without prior-knowledge h2 need it
                    .setConnectionTimeout(settings.requestTimeout());
            if (settings.trustCertificate().isPresent()) {
                builder.setTrustedServerCertificateChain(settings.trustCertificate().get().toFile());
            }
            String topic;
            if (tokenAuth) {
                if (dot <= 0 || dot == appId.length() - 1) {
                    return failed(credentials, "credentials: app_id is not <Team ID>.<bundle id>");
                }
                topic = appId.substring(dot + 1);
                builder.setSigningKey(ApnsSigningKey.loadFromInputStream(
                        new ByteArrayInputStream(certificate.getBytes(StandardCharsets.UTF_8)),
                        appId.substring(0, dot), credentials.appKey()));
            } else {
                topic = dot < 0 ? appId : appId.substring(dot + 1);
                String password = credentials.appSecret() == null ? "" : credentials.appSecret();
                builder.setClientCredentials(
                        new ByteArrayInputStream(Base64.getMimeDecoder().decode(certificate.trim())), password);
            }
            return new Client(key, credentials.version(), builder.build(), topic, null);
        } catch (Exception e) {
            LOG.warnf("ios credentials of %s unusable: %s", credentials, e.toString());
            return failed(credentials, "credentials: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        }
    }

    private static Client failed(Credentials credentials, String error) {
        return new Client(credentials.cacheKey(), credentials.version(), null, null, error);
    }

    @Override
    public void close() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Client client : clients.values()) {
            if (client.client() != null) {
                closing.add(client.client().close());
            }
        }
        clients.clear();
        current.clear();
        try {
            CompletableFuture.allOf(closing.toArray(new CompletableFuture[0])).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
        eventLoopGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }
}

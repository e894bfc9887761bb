package io.imcore.pushworker.channel.fcm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.ServiceAccountCredentials;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.FanOutAdapter;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.TrustOptions;
import io.vertx.core.net.impl.ConnectionBase;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.jboss.logging.Logger;

/**
 * The cloud channel: FCM HTTP v1 ({@code POST <base>/v1/projects/<project_id>/messages:send}, one request per
 * token) with a service-account OAuth2 access token (docs/channels/fcm.md).
 *
 * <p>Access tokens come from the configured {@code auth-url} only, never from the JSON's {@code token_uri}.
 *
 * <p>One google-auth {@link ServiceAccountCredentials} per credentials version ({@link Credentials#cacheKey()}); its
 * access token is fetched once and reused until it nears expiry. A 401 refreshes it once (only once for all the
 * requests that used the same token) and repeats that request once.
 *
 * <p>Transport: the Vert.x core HTTP client on the adapter's own small {@link Vertx} (closed by {@link #close()}),
 * HTTP/2 multiplexed on one connection per host: negotiated by ALPN over https, HTTP/2 prior knowledge (h2c) over
 * plain http (the simulator). {@link #send} stays blocking: it issues its requests asynchronously and waits for all
 * the answers.
 */
public class FcmAdapter extends FanOutAdapter {

    static final String SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
    private static final Logger LOG = Logger.getLogger(FcmAdapter.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Event loops of the adapter's Vert.x: one connection per host needs one; a second serves a second host. */
    private static final int EVENT_LOOPS = 2;

    private final ChannelSettings settings;
    /**
     * Requests open at once over all send calls, kept under the server's concurrent-stream limit (FCM's: 100) so
     * the HTTP/2 connection carries them all at once (beyond it, the client queues requests for a stream).
     */
    private final Semaphore inFlight;
    /** The adapter's own event loop(s), for the HTTP client only. */
    private final Vertx vertx;
    private final HttpClient http;
    private final Map<String, Account> accounts = new ConcurrentHashMap<>();
    private final Map<String, Account> current = new ConcurrentHashMap<>();

    /** One service account's state; {@code error} when its JSON is unusable. */
    static final class Account {
        final String cacheKey;
        final long version;
        final String projectId;
        final ServiceAccountCredentials credentials;
        final String error;

        Account(String cacheKey, long version, String projectId, ServiceAccountCredentials credentials,
                String error) {
            this.cacheKey = cacheKey;
            this.version = version;
            this.projectId = projectId;
            this.credentials = credentials;
            this.error = error;
        }

        /** The current access token, fetched when absent or about to expire. */
        synchronized String accessToken() throws IOException {
            credentials.refreshIfExpired();
            AccessToken token = credentials.getAccessToken();
            if (token == null) {
                throw new IOException("no access token");
            }
            return token.getTokenValue();
        }

        /** A fresh token after {@code refused} was refused (refreshed once however many requests saw it refused). */
        synchronized String refreshAfter(String refused) throws IOException {
            AccessToken token = credentials.getAccessToken();
            if (token == null || token.getTokenValue().equals(refused)) {
                credentials.refresh();
            }
            return credentials.getAccessToken().getTokenValue();
        }
    }

    public FcmAdapter(ChannelSettings settings) {
        super(Channel.FCM);
        this.settings = settings;
        int maxConcurrent = Math.max(1, settings.maxConcurrentRequests());
        this.inFlight = new Semaphore(maxConcurrent);
        this.vertx = Vertx.vertx(new VertxOptions()
                .setEventLoopPoolSize(EVENT_LOOPS)
                .setWorkerPoolSize(2) // token refreshes after a 401 (google-auth blocks)
                .setInternalBlockingPoolSize(2)
                .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
                        .setClassPathResolvingEnabled(false)));
        HttpClientOptions options = new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setUseAlpn(true) // https: h2 by ALPN, else HTTP/1.1
                .setHttp2ClearTextUpgrade(false) // http: h2c with prior knowledge, no upgrade
                .setHttp2MaxPoolSize(1) // one connection per host: its streams carry every request
                .setMaxPoolSize(Math.min(maxConcurrent, 64)) // only if a server answers ALPN with HTTP/1.1
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, settings.requestTimeout().toMillis()));
        if (settings.trustCertificate().isPresent()) {
            try {
                options.setTrustOptions(trustOptions(settings.trustCertificate().get()));
            } catch (Exception e) {
                LOG.warnf("cloud: trust certificate %s unusable, using the JDK's trust store: %s",
                        settings.trustCertificate().get(), e.toString());
            }
        }
        this.http = vertx.httpClientBuilder().with(options).withConnectHandler(FcmAdapter::consolidateFlushes).build();
    }

    /**
     * One flush for the requests that are written one after another: each request is its own event-loop task, and
     * Vert.x flushes after each of its HEADERS and DATA frames unless it is reading; Netty's handler defers those
     * flushes to the end of the tasks queued at that moment (at most 256 pending), so one write carries the frames
     * of many requests. Vert.x exposes a connection's Netty channel only through its internal ConnectionBase.
     */
    private static void consolidateFlushes(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            base.channel().pipeline().addLast("flush-consolidation", new FlushConsolidationHandler(256, true));
        } else {
            LOG.debugf("cloud: connection %s is not a ConnectionBase, its flushes are not consolidated",
                    connection.getClass().getName());
        }
    }

    @Override
    public List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        int n = deliveries.size();
        Account account = account(credentials);
        String accessToken = null;
        String error = account.error;
        if (error == null) {
            try {
                accessToken = account.accessToken();
            } catch (Exception e) {
                error = "auth: " + describe(e);
            }
        }
        if (error != null) {
            return VendorHttp.all(n, Outcome.retry(error));
        }
        URI uri = sendUri(credentials.environment(), account.projectId);
        long now = Instant.now().getEpochSecond();
        Map<Integer, String> bodies = new HashMap<>();
        long timeoutMillis = settings.requestTimeout().toMillis();
        List<CompletableFuture<Outcome>> futures = new ArrayList<>(n);
        for (Delivery delivery : deliveries) {
            Integer badge = notification.isPassThrough() ? null : delivery.badge();
            String message = bodies.computeIfAbsent(badge, b -> FcmMessage.build(notification, b, now));
            String body = FcmMessage.withToken(message, delivery.token());
            CompletableFuture<Outcome> outcome = new CompletableFuture<>();
            futures.add(outcome);
            try {
                if (!inFlight.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
                    outcome.complete(Outcome.retry("timeout waiting for a request slot"));
                    continue;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                outcome.complete(Outcome.retry("interrupted"));
                continue;
            }
            outcome.whenComplete((o, e) -> inFlight.release());
            post(account, uri, body, accessToken, true).whenComplete((o, e) ->
                    outcome.complete(e != null ? Outcome.retry("connection: " + describe(e)) : o));
            // the request itself times out; this only guards against a refresh that hangs
            outcome.completeOnTimeout(Outcome.retry("timeout"), 3 * timeoutMillis, TimeUnit.MILLISECONDS);
        }
        List<Outcome> outcomes = joinAll(futures);
        Account newest = current.get(credentials.appId() + "/" + credentials.environment());
        if (newest != null && newest.version > account.version) {
            accounts.remove(account.cacheKey, account); // older credentials than the newest seen: not kept
        }
        return outcomes;
    }

    private CompletableFuture<Outcome> post(Account account, URI uri, String body, String accessToken,
            boolean mayRefresh) {
        long timeout = settings.requestTimeout().toMillis();
        RequestOptions request = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(uri.toString())
                .setConnectTimeout(timeout)
                .setIdleTimeout(timeout) // no answer within the timeout: the stream is reset and the request fails
                .putHeader("authorization", "Bearer " + accessToken)
                .putHeader("content-type", "application/json; charset=UTF-8");
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        http.request(request)
                .compose(r -> {
                    // the body is asked for as the head arrives, set up before the request goes out: chained after
                    // send() on this (sender) thread, a fast answer could be read by the event loop first, and its
                    // body was lost (an error without its reason)
                    Future<Answer> answer = r.response()
                            .compose(response -> response.body().map(b -> new Answer(response, b)));
                    return r.end(Buffer.buffer(body)).compose(sent -> answer);
                })
                .onComplete(result -> {
                    if (result.failed()) {
                        outcome.complete(Outcome.retry("connection: " + describe(result.cause())));
                        return;
                    }
                    Answer answer = result.result();
                    FcmError fcmError = FcmError.of(answer.status, answer.body);
                    if (answer.status == 401 && mayRefresh && !fcmError.is("THIRD_PARTY_AUTH_ERROR")) {
                        // google-auth blocks: not on the event loop
                        vertx.executeBlocking(() -> account.refreshAfter(accessToken), false)
                                .onComplete(fresh -> {
                                    if (fresh.failed()) {
                                        outcome.complete(Outcome.retry("auth: " + describe(fresh.cause())));
                                    } else {
                                        post(account, uri, body, fresh.result(), false).whenComplete((o, e) ->
                                                outcome.complete(e != null
                                                        ? Outcome.retry("connection: " + describe(e)) : o));
                                    }
                                });
                        return;
                    }
                    outcome.complete(classify(answer.status, fcmError, retryAfter(answer.retryAfter)));
                });
        return outcome;
    }

    /** An HTTP answer: status, Retry-After header, body. */
    private record Answer(int status, String retryAfter, String body) {
        Answer(HttpClientResponse response, Buffer body) {
            this(response.statusCode(), response.getHeader("retry-after"), body.toString(StandardCharsets.UTF_8));
        }
    }

    /** The outcome of an FCM answer (docs/channels/fcm.md "Outcomes"). */
    static Outcome classify(int status, FcmError error, Duration retryAfter) {
        if (status >= 200 && status < 300) {
            return Outcome.ACCEPTED;
        }
        String reason = error.reason(status);
        // FCM v1 ErrorCode reference: UNREGISTERED is a 404 carrying that errorCode, SENDER_ID_MISMATCH a 403. A 404
        // without it (a wrong base URL, path or project_id) says nothing about the token: never unbind on it.
        if (error.is("UNREGISTERED") || error.is("SENDER_ID_MISMATCH")) {
            return Outcome.rejected(reason);
        }
        if (status == 404) {
            return Outcome.failed("not found, check the base URL and the project_id: " + reason);
        }
        if (status == 400 && error.aboutToken()) {
            return Outcome.rejected(reason);
        }
        if (status == 429 || status >= 500) {
            return Outcome.retry(reason, retryAfter);
        }
        if (status == 401 || status == 403) {
            return Outcome.retry("credentials refused: " + reason, retryAfter);
        }
        // a 400 about the message (too big, bad field): not the token's fault: failed for good, the token kept
        return Outcome.failed("message refused: " + reason);
    }

    /** Google's error JSON: {error: {code, message, status, details: [{@type, errorCode | fieldViolations}]}}. */
    record FcmError(String status, String message, List<String> errorCodes, List<String> fields) {

        static FcmError of(int status, String body) {
            List<String> codes = new ArrayList<>();
            List<String> fields = new ArrayList<>();
            if (status < 300) {
                return new FcmError(null, null, codes, fields);
            }
            try {
                JsonNode error = MAPPER.readTree(body).path("error");
                for (JsonNode detail : error.path("details")) {
                    if (detail.hasNonNull("errorCode")) {
                        codes.add(detail.get("errorCode").asText());
                    }
                    for (JsonNode violation : detail.path("fieldViolations")) {
                        fields.add(violation.path("field").asText());
                    }
                }
                return new FcmError(error.path("status").asText(null), error.path("message").asText(null), codes,
                        fields);
            } catch (Exception e) {
                return new FcmError(null, null, codes, fields);
            }
        }

        boolean is(String errorCode) {
            return errorCodes.contains(errorCode);
        }

        /** A 400 naming the registration token (malformed or not an FCM token), not the message's content. */
        boolean aboutToken() {
            return fields.contains("message.token")
                    || (message != null && message.toLowerCase().contains("registration token"));
        }

        String reason(int httpStatus) {
            String code = errorCodes.isEmpty() ? (status != null ? status : "HTTP " + httpStatus) : errorCodes.get(0);
            return message == null ? code : code + " (" + message + ")";
        }
    }

    static Duration retryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim())));
        } catch (NumberFormatException e) {
            try {
                Instant at = ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                Duration wait = Duration.between(Instant.now(), at);
                return wait.isNegative() ? Duration.ZERO : wait;
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    private URI sendUri(int environment, String projectId) {
        String base = settings.baseUrl(environment).toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + "/v1/projects/" + projectId + "/messages:send");
    }

    private Account account(Credentials credentials) {
        Account account = accounts.computeIfAbsent(credentials.cacheKey(), key -> build(credentials));
        String slot = credentials.appId() + "/" + credentials.environment();
        Account[] replaced = new Account[1];
        current.compute(slot, (s, previous) -> {
            if (previous == null || previous.version < account.version) {
                replaced[0] = previous;
                return account;
            }
            return previous;
        });
        if (replaced[0] != null && !replaced[0].cacheKey.equals(account.cacheKey)) {
            accounts.remove(replaced[0].cacheKey);
        }
        return account;
    }

    private Account build(Credentials credentials) {
        String json = credentials.certificate() == null ? "" : credentials.certificate();
        try {
            String projectId = MAPPER.readTree(json).path("project_id").asText("");
            if (projectId.isEmpty()) {
                return failed(credentials, "credentials: the service-account JSON has no project_id");
            }
            if (settings.authUrl().isEmpty()) {
                return failed(credentials, "credentials: im.push.worker.channel.cloud.auth-url is not set");
            }
            ServiceAccountCredentials.Builder builder;
            try (InputStream in = new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))) {
                builder = ServiceAccountCredentials.fromStream(in).toBuilder();
            }
            builder.setScopes(List.of(SCOPE));
            // the JSON's token_uri is the tenant's: posting the signed grant there (and the test send echoing the
            // answer) would make push-worker a proxy to any address; only the configured endpoint is asked
            builder.setTokenServerUri(settings.authUrl().get());
            return new Account(credentials.cacheKey(), credentials.version(), projectId, builder.build(), null);
        } catch (Exception e) {
            LOG.warnf("cloud credentials of %s unusable: %s", credentials, e.toString());
            return failed(credentials, "credentials: " + describe(e));
        }
    }

    @Override
    public void close() {
        accounts.clear();
        current.clear();
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS); // the client with it
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debugf("cloud: closing the HTTP client: %s", e.toString());
        }
    }

    private static Account failed(Credentials credentials, String error) {
        return new Account(credentials.cacheKey(), credentials.version(), null, null, error);
    }

    private static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : " " + cause.getMessage());
    }

    /** The JDK's trust anchors plus the PEM file's certificates. */
    private static TrustOptions trustOptions(Path pem) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        defaults.init((KeyStore) null);
        int i = 0;
        for (var manager : defaults.getTrustManagers()) {
            if (manager instanceof X509TrustManager x509) {
                for (X509Certificate cert : x509.getAcceptedIssuers()) {
                    store.setCertificateEntry("jdk-" + i++, cert);
                }
            }
        }
        try (InputStream in = Files.newInputStream(pem)) {
            for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("extra-" + i++, cert);
            }
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return TrustOptions.wrap(factory);
    }
}

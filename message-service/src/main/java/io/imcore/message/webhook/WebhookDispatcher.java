package io.imcore.message.webhook;

import io.imcore.common.concurrent.PollingLoop;
import io.imcore.common.store.Database;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Sends the queued events ({@code webhook_deliveries}) to the apps' endpoints, signed (Standard Webhooks): each round
 * claims the due deliveries (the oldest pending one of each conversation, so order holds per conversation across
 * replicas), sends them concurrently, and records each outcome. A 2xx answer delivers; anything else is retried with
 * a doubling, jittered wait; a delivery still failing {@code give-up-after} after it was queued disables its endpoint
 * (metric {@code imcore_webhook_endpoints_disabled_total}, its alert, the console's banner) and keeps the
 * undelivered events until POST /app/webhook enables it again or the retention purges them.
 */
@ApplicationScoped
public class WebhookDispatcher {

    private static final Logger LOG = Logger.getLogger(WebhookDispatcher.class);

    private final Database database;
    private final DeliveryStore deliveries;
    private final WebhookEndpointStore endpoints;
    private final WebhookService webhooks;
    private final WebhookConfig.Delivery settings;
    private final HttpClient client;
    private final Counter delivered;
    private final Counter failed;
    private final Counter disabled;
    private final Timer latency;
    private PollingLoop loop;

    public WebhookDispatcher(Database database, DeliveryStore deliveries, WebhookEndpointStore endpoints,
            WebhookService webhooks, WebhookConfig config, MeterRegistry registry) {
        this.database = database;
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.webhooks = webhooks;
        this.settings = config.delivery();
        // never follow a redirect: its target was not checked against the private network
        this.client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.timeout()).build();
        this.delivered = Counter.builder("imcore.webhook.deliveries").tag("outcome", "delivered")
                .description("webhook delivery attempts by outcome").register(registry);
        this.failed = Counter.builder("imcore.webhook.deliveries").tag("outcome", "failed")
                .description("webhook delivery attempts by outcome").register(registry);
        this.disabled = Counter.builder("imcore.webhook.endpoints.disabled")
                .description("endpoints disabled because a delivery kept failing").register(registry);
        this.latency = Timer.builder("imcore.webhook.delivery.duration")
                .description("one delivery attempt, until the endpoint's answer or the failure").register(registry);
    }

    void start(@Observes StartupEvent event) {
        if (!settings.enabled()) {
            return;
        }
        loop = new PollingLoop("webhook-dispatcher", settings.pollInterval().toMillis(), settings.claimSize(),
                this::round, LOG);
        loop.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (loop != null) {
            loop.stop();
        }
    }

    /** Purges the delivery log past its retention. */
    @Scheduled(every = "10m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purge() {
        database.autoCommit(c -> deliveries.purge(c, settings.retention()));
    }

    /** One round: claim, send, record; returns how many deliveries it handled. */
    int round() {
        // leased past the longest attempt, so that a live dispatcher never loses its claim
        Duration lease = settings.timeout().multipliedBy(2).plusSeconds(5);
        List<DeliveryStore.Claimed> claimed = database.inTransaction(c -> deliveries.claim(c, settings.claimSize(),
                lease));
        if (claimed.isEmpty()) {
            return 0;
        }
        List<CompletableFuture<DeliveryStore.Outcome>> attempts = new ArrayList<>();
        for (DeliveryStore.Claimed delivery : claimed) {
            attempts.add(attempt(delivery));
        }
        List<DeliveryStore.Outcome> outcomes = attempts.stream().map(CompletableFuture::join).toList();
        Set<String> givenUp = new LinkedHashSet<>();
        for (int i = 0; i < claimed.size(); i++) {
            DeliveryStore.Claimed delivery = claimed.get(i);
            if (!outcomes.get(i).delivered()
                    && delivery.createdAt().plus(settings.giveUpAfter()).isBefore(Instant.now())) {
                givenUp.add(delivery.appId());
            }
        }
        database.inTransaction(c -> {
            deliveries.record(c, outcomes);
            for (String appId : givenUp) {
                if (endpoints.disable(c, appId, "deliveries failed for " + settings.giveUpAfter().toHours()
                        + " h; last: " + outcomes.get(indexOf(claimed, appId)).answer())) {
                    disabled.increment();
                    LOG.warnf("webhook endpoint of app %s disabled: deliveries kept failing", appId);
                }
            }
            return null;
        });
        return claimed.size();
    }

    private static int indexOf(List<DeliveryStore.Claimed> claimed, String appId) {
        for (int i = claimed.size() - 1; i >= 0; i--) {
            if (claimed.get(i).appId().equals(appId)) {
                return i;
            }
        }
        throw new IllegalArgumentException(appId);
    }

    /** One delivery's attempt; never fails: a failure is an outcome with its next attempt. */
    private CompletableFuture<DeliveryStore.Outcome> attempt(DeliveryStore.Claimed delivery) {
        long start = System.nanoTime();
        boolean allowed;
        try {
            allowed = webhooks.allowedHost(URI.create(delivery.url()).getHost());
        } catch (RuntimeException unknownHost) {
            allowed = false;
        }
        if (!allowed) {
            return CompletableFuture.completedFuture(failure(delivery, null, start,
                    "not sent: the host is not a public address (or does not resolve)"));
        }
        return client.sendAsync(WebhookSignature.signedPost(delivery.url(), delivery.secret(), delivery.eventId(),
                delivery.body(), settings.timeout()), HttpResponse.BodyHandlers.ofString())
                .handle((response, error) -> {
                    if (error != null) {
                        return failure(delivery, null, start, "no answer: " + describe(error));
                    }
                    String answer = excerpt(response.body());
                    if (response.statusCode() / 100 == 2) {
                        delivered.increment();
                        return new DeliveryStore.Outcome(delivery.id(), true, response.statusCode(), elapsedMs(start),
                                answer, null);
                    }
                    return failure(delivery, response.statusCode(), start, answer);
                });
    }

    private DeliveryStore.Outcome failure(DeliveryStore.Claimed delivery, Integer status, long start, String answer) {
        failed.increment();
        return new DeliveryStore.Outcome(delivery.id(), false, status, elapsedMs(start), excerpt(answer),
                Instant.now().plus(retryDelay(delivery.attempts())));
    }

    /** The wait before attempt {@code attempts + 1}: doubling from the initial wait, capped, jittered by ±20 %. */
    Duration retryDelay(int attempts) {
        long initial = settings.retryInitial().toMillis();
        long capped = Math.min(settings.retryMax().toMillis(), initial << Math.min(attempts - 1, 30));
        return Duration.ofMillis((long) (capped * ThreadLocalRandom.current().nextDouble(0.8, 1.2)));
    }

    private int elapsedMs(long start) {
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        latency.record(millis, TimeUnit.MILLISECONDS);
        return (int) millis;
    }

    private String excerpt(String answer) {
        if (answer == null) {
            return null;
        }
        return answer.length() <= settings.answerExcerpt() ? answer : answer.substring(0, settings.answerExcerpt());
    }

    private static String describe(Throwable error) {
        Throwable cause = error.getCause() != null ? error.getCause() : error;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}

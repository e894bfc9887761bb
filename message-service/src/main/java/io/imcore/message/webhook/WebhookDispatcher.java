package io.imcore.message.webhook;

import io.imcore.common.concurrent.PollingLoop;
import io.imcore.common.store.Database;
import io.imcore.message.webhook.DeliveryStore.ClaimedDelivery;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Sends the queued events ({@code webhook_deliveries}) to the apps' endpoints, signed (Standard Webhooks): each round
 * claims the due heads (each conversation's oldest pending event, so order holds per conversation across replicas),
 * sends them concurrently, and records each outcome. A 2xx answer delivers; anything else is retried with a
 * doubling, jittered wait; a delivery still failing {@code give-up-after} after it was queued disables its endpoint
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
        // again at once whenever a round found anything: a conversation's next event is due as soon as one is sent
        loop = new PollingLoop("webhook-dispatcher", settings.pollInterval().toMillis(), 1, this::round, LOG);
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
        database.autoCommit(c -> deliveries.purgeDelivered(c, settings.retention()));
        database.inTransaction(c -> deliveries.purgeUndelivered(c, settings.retention()));
    }

    /** One round: claim, send, record; returns how many deliveries it handled. */
    int round() {
        // leased past the longest attempt, so that a live dispatcher never loses its claim
        Duration lease = settings.timeout().multipliedBy(2).plusSeconds(5);
        List<ClaimedDelivery> claimed = database.inTransaction(c -> deliveries.claim(c, settings.claimSize(),
                lease));
        if (claimed.isEmpty()) {
            return 0;
        }
        // an app with a batch size sends several events per request (at most one per conversation: the claim's order)
        Map<String, List<ClaimedDelivery>> byApp = new LinkedHashMap<>();
        claimed.forEach(delivery -> byApp.computeIfAbsent(delivery.appId(), app -> new ArrayList<>()).add(delivery));
        List<CompletableFuture<List<DeliveryStore.Outcome>>> attempts = new ArrayList<>();
        for (List<ClaimedDelivery> ofApp : byApp.values()) {
            int batch = Math.max(1, ofApp.get(0).batchSize());
            for (int from = 0; from < ofApp.size(); from += batch) {
                attempts.add(attempt(ofApp.subList(from, Math.min(ofApp.size(), from + batch))));
            }
        }
        Map<Long, DeliveryStore.Outcome> byId = new HashMap<>();
        attempts.forEach(attempt -> attempt.join().forEach(outcome -> byId.put(outcome.id(), outcome)));
        List<DeliveryStore.Outcome> outcomes = claimed.stream().map(delivery -> byId.get(delivery.id())).toList();
        Set<String> givenUp = new LinkedHashSet<>();
        for (int i = 0; i < claimed.size(); i++) {
            ClaimedDelivery delivery = claimed.get(i);
            if (!outcomes.get(i).delivered()
                    && delivery.createdAt().plus(settings.giveUpAfter()).isBefore(Instant.now())) {
                givenUp.add(delivery.appId());
            }
        }
        database.inTransaction(c -> {
            deliveries.record(c, claimed, outcomes);
            for (String appId : givenUp) {
                if (endpoints.disable(c, appId, "deliveries failed for " + settings.giveUpAfter().toHours()
                        + " h; last: " + outcomes.get(indexOf(claimed, appId)).answer())) {
                    deliveries.pause(c, appId);
                    disabled.increment();
                    LOG.warnf("webhook endpoint of app %s disabled: deliveries kept failing", appId);
                }
            }
            return null;
        });
        return claimed.size();
    }

    private static int indexOf(List<ClaimedDelivery> claimed, String appId) {
        for (int i = claimed.size() - 1; i >= 0; i--) {
            if (claimed.get(i).appId().equals(appId)) {
                return i;
            }
        }
        throw new IllegalArgumentException(appId);
    }

    /**
     * One request carrying one delivery (its event as the body) or several of one app (a batch); never fails: a
     * failure is an outcome per delivery, with its next attempt.
     */
    private CompletableFuture<List<DeliveryStore.Outcome>> attempt(List<ClaimedDelivery> deliveries) {
        long start = System.nanoTime();
        ClaimedDelivery first = deliveries.get(0);
        boolean allowed;
        try {
            allowed = webhooks.allowedHost(URI.create(first.url()).getHost());
        } catch (RuntimeException unknownHost) {
            allowed = false;
        }
        if (!allowed) {
            return CompletableFuture.completedFuture(failures(deliveries, null, start,
                    "not sent: the host is not a public address (or does not resolve)"));
        }
        String id = deliveries.size() == 1 ? first.eventId() : "evt_batch_" + UUID.randomUUID();
        String body = deliveries.size() == 1 ? first.body() : batchBody(deliveries);
        return client.sendAsync(WebhookSignature.signedPost(first.url(), first.secret(), id, body, settings.timeout()),
                        HttpResponse.BodyHandlers.ofString())
                .handle((response, error) -> {
                    if (error != null) {
                        return failures(deliveries, null, start, "no answer: " + describe(error));
                    }
                    String answer = excerpt(response.body());
                    if (response.statusCode() / 100 != 2) {
                        return failures(deliveries, response.statusCode(), start, answer);
                    }
                    int millis = elapsedMs(start);
                    delivered.increment(deliveries.size());
                    return deliveries.stream().map(delivery -> new DeliveryStore.Outcome(delivery.id(), true,
                            response.statusCode(), millis, answer, null)).toList();
                });
    }

    /**
     * Several events in one body: {@code {"type": "batch", "timestamp", "data": {"events": [{"id", "type",
     * "timestamp", "data"}, ...]}}}, each event with its own id for the receiver's de-duplication.
     */
    private String batchBody(List<ClaimedDelivery> deliveries) {
        StringBuilder events = new StringBuilder();
        for (ClaimedDelivery delivery : deliveries) {
            events.append(events.isEmpty() ? "" : ",").append("{\"id\":\"").append(delivery.eventId()).append("\",")
                    .append(delivery.body(), 1, delivery.body().length());
        }
        return "{\"type\":\"" + WebhookEvents.BATCH + "\",\"timestamp\":\"" + Instant.now()
                + "\",\"data\":{\"events\":[" + events + "]}}";
    }

    private List<DeliveryStore.Outcome> failures(List<ClaimedDelivery> deliveries, Integer status, long start,
            String answer) {
        int millis = elapsedMs(start);
        failed.increment(deliveries.size());
        return deliveries.stream().map(delivery -> new DeliveryStore.Outcome(delivery.id(), false, status, millis,
                excerpt(answer), Instant.now().plus(retryDelay(delivery.attempts())))).toList();
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

package io.imcore.message.moderation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.message.send.request.SendRequest;
import io.imcore.message.webhook.WebhookConfig;
import io.imcore.message.webhook.WebhookEndpoint;
import io.imcore.message.webhook.WebhookEvents;
import io.imcore.message.webhook.WebhookSignature;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Calls an app's before-send hook (docs/webhooks.md "The before-send hook"): a signed {@code message.before_send}
 * event whose answer allows, refuses (the app's code and text inside 21001) or replaces (content, ext) the message.
 * It never takes the send path down: the app's timeout bounds each call, at most {@code max-concurrent} calls of
 * one app are in flight, and the app's {@link CircuitBreaker} stops calling a hook that keeps failing; a call that
 * fails, or is not made for those reasons, is decided by the app's {@code hook_fail_open} (send as is, or 21002).
 * Metrics: {@code imcore_webhook_hook_calls_total{outcome}}, {@code imcore_webhook_hook_duration_seconds},
 * {@code imcore_webhook_hook_breakers_open}.
 */
@ApplicationScoped
public class BeforeSendHook {

    /** Why a call decided nothing; each is an outcome of the calls metric. */
    private static final String TIMEOUT = "timeout";
    private static final String ERROR = "error";
    private static final String BREAKER_OPEN = "breaker_open";
    private static final String SATURATED = "saturated";

    private final ObjectMapper mapper;
    private final WebhookConfig.Hook settings;
    private final MeterRegistry registry;
    private final HttpClient client;
    private final Timer duration;
    private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    public BeforeSendHook(ObjectMapper mapper, WebhookConfig config, MeterRegistry registry) {
        this.mapper = mapper;
        this.settings = config.hook();
        this.registry = registry;
        this.client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(2)).build();
        this.duration = Timer.builder("imcore.webhook.hook.duration")
                .description("before-send hook calls, until the answer or the failure").register(registry);
        Gauge.builder("imcore.webhook.hook.breakers.open", breakers,
                        all -> all.values().stream().filter(CircuitBreaker::isOpen).count())
                .description("apps whose before-send hook breaker is open").register(registry);
    }

    /**
     * The request as the app's hook decides it: the same, a replaced one, or a failed future (21001 refused, 21002
     * hook unavailable and fail-closed). {@code addressAllowed}: the endpoint's host passed the private-address check.
     */
    CompletableFuture<SendRequest> decide(WebhookEndpoint endpoint, boolean addressAllowed, long sender,
            SendRequest request) {
        CircuitBreaker breaker = breakers.computeIfAbsent(endpoint.appId(), app -> new CircuitBreaker(
                settings.breakerFailures(), settings.breakerOpenFor().toNanos(), System::nanoTime));
        if (!addressAllowed) {
            return notDecided(endpoint, request, ERROR);
        }
        if (!breaker.allowsCall()) {
            return notDecided(endpoint, request, BREAKER_OPEN);
        }
        AtomicInteger calls = inFlight.computeIfAbsent(endpoint.appId(), app -> new AtomicInteger());
        if (calls.incrementAndGet() > settings.maxConcurrent()) {
            calls.decrementAndGet();
            return notDecided(endpoint, request, SATURATED);
        }
        String body = WebhookEvents.body(mapper, WebhookEvents.MESSAGE_BEFORE_SEND, Instant.now(),
                data(sender, request));
        long start = System.nanoTime();
        CompletableFuture<HttpResponse<String>> call;
        try {
            call = client.sendAsync(WebhookSignature.signedPost(endpoint.url(), endpoint.secret(),
                    "evt_before_send_" + UUID.randomUUID(), body, Duration.ofMillis(endpoint.hookTimeoutMs())),
                    HttpResponse.BodyHandlers.ofString());
        } catch (RuntimeException unsendable) {
            call = CompletableFuture.failedFuture(unsendable);
        }
        return call
                .orTimeout(endpoint.hookTimeoutMs(), TimeUnit.MILLISECONDS)
                .handle((response, error) -> {
                    calls.decrementAndGet();
                    duration.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                    JsonNode answer = error == null ? answer(response) : null;
                    String action = answer == null ? null : answer.path("action").asText();
                    if (action == null || !(action.equals("allow") || action.equals("refuse")
                            || action.equals("replace"))) {
                        breaker.failed();
                        return notDecided(endpoint, request, isTimeout(error) ? TIMEOUT : ERROR);
                    }
                    breaker.succeeded();
                    count(action);
                    return switch (action) {
                        case "refuse" -> CompletableFuture.<SendRequest>failedFuture(refusal(answer));
                        case "replace" -> CompletableFuture.completedFuture(replaced(request, answer));
                        default -> CompletableFuture.completedFuture(request);
                    };
                })
                .thenCompose(decided -> decided);
    }

    private ObjectNode data(long sender, SendRequest request) {
        ObjectNode data = mapper.createObjectNode();
        data.put("from_user_id", sender);
        data.put("type", request.type());
        data.set("targets", mapper.valueToTree(request.targets()));
        data.put("content_type", request.contentType());
        data.put("content", request.content());
        data.put("attachment", request.attachment());
        data.put("config", request.config());
        data.put("ext", request.ext());
        data.put("transaction_id", request.transactionId());
        return data;
    }

    /** The answer's JSON when the status is 2xx and the body an object, else null (a failed call). */
    private JsonNode answer(HttpResponse<String> response) {
        if (response.statusCode() / 100 != 2) {
            return null;
        }
        try {
            JsonNode answer = mapper.readTree(response.body());
            return answer != null && answer.isObject() ? answer : null;
        } catch (Exception unreadable) {
            return null;
        }
    }

    private static ApiException refusal(JsonNode answer) {
        Map<String, Object> appAnswer = new HashMap<>();
        appAnswer.put("app_code", answer.path("code").isMissingNode() ? null : answer.get("code"));
        appAnswer.put("app_message", answer.path("message").isTextual() ? answer.get("message").asText() : null);
        return new ApiException(ErrorCode.MESSAGE_REFUSED, "message refused by the app's before-send hook"
                + (appAnswer.get("app_message") == null ? "" : ": " + appAnswer.get("app_message")), appAnswer);
    }

    /** The request with the answer's content and ext where it gives them (a string, or null to clear ext). */
    private static SendRequest replaced(SendRequest request, JsonNode answer) {
        String content = answer.hasNonNull("content") ? answer.get("content").asText() : request.content();
        String ext = answer.has("ext") ? (answer.get("ext").isNull() ? null : text(answer.get("ext")))
                : request.ext();
        return new SendRequest(request.contentType(), content, request.attachment(), request.config(), ext,
                request.fromUserId(), request.targets(), request.type(), request.transactionId());
    }

    /** ext is a string on the wire; an app that answers a JSON object gets it stored as its text. */
    private static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : node.toString();
    }

    /** A send the hook did not decide: sent as is (fail open) or refused with 21002 (fail closed). */
    private CompletableFuture<SendRequest> notDecided(WebhookEndpoint endpoint, SendRequest request, String why) {
        count(why);
        if (endpoint.hookFailOpen()) {
            return CompletableFuture.completedFuture(request);
        }
        return CompletableFuture.failedFuture(new ApiException(ErrorCode.MODERATION_UNAVAILABLE,
                "the app's before-send hook did not answer (" + why + "); the message was not sent"));
    }

    private void count(String outcome) {
        registry.counter("imcore.webhook.hook.calls", "outcome", outcome).increment();
    }

    private static boolean isTimeout(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (e instanceof TimeoutException || e instanceof HttpTimeoutException) {
                return true;
            }
        }
        return false;
    }
}

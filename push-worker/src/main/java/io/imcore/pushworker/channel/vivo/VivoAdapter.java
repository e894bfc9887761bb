package io.imcore.pushworker.channel.vivo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * vivo push server API (docs/channels/vivo.md).
 *
 * <p>Auth: {@code POST /message/auth} with {@code sign = md5(appId + appKey + timestamp + appSecret)}; the authToken
 * (valid 24 h) is cached per {@link Credentials#cacheKey()}, renewed after {@link #TOKEN_REFRESH} and once when a push
 * answers that the token is not valid. Two or more targets: the message is saved once per task and credentials
 * ({@code /message/saveListPayload}, the vivo taskId is cached) and sent with {@code /message/pushToList} (up to
 * 1000 regIds); a single target goes through {@code /message/send} (pushToList needs at least two regIds).
 *
 * <p>vivo answers business errors as a non-zero {@code result} with HTTP 200 and server trouble as HTTP 500: a result
 * code is a permanent refusal (FAILED at once) unless it is an expired authToken or a rate limit. A spent daily quota
 * (10070, 10252) is FAILED too, and remembered until midnight China time: vivo asks not to call again that day.
 */
public class VivoAdapter implements ChannelAdapter {

    static final String AUTH_PATH = "/message/auth";
    static final String SAVE_LIST_PAYLOAD_PATH = "/message/saveListPayload";
    static final String PUSH_TO_LIST_PATH = "/message/pushToList";
    static final String SEND_PATH = "/message/send";

    static final int MAX_TARGETS = 1000;

    /** Result codes (docs/channels/vivo.md has the table). */
    static final int RESULT_OK = 0;
    static final int RESULT_AUTH_TOKEN_INVALID = 10000;
    static final int RESULT_APP_MISMATCH = 10094;
    static final int RESULT_DAILY_QUOTA = 10070;
    static final int RESULT_LIST_PAYLOAD_QUOTA = 10252;
    static final int RESULT_REGID_INVALID = 10302;
    /** Answers worth a later retry: 10072 "发送速度过快" (sending too fast). */
    static final Set<Integer> TRANSIENT_RESULTS = Set.of(10072);

    /** vivo tokens live 24 h; vivo asks to renew them every one to two hours. */
    static final Duration TOKEN_REFRESH = Duration.ofHours(1);
    /** How long a saved list payload (vivo taskId) is reused for further batches of the same task. */
    static final Duration PAYLOAD_REUSE = Duration.ofMinutes(30);
    private static final ZoneOffset CHINA = ZoneOffset.ofHours(8);

    /** The daily quotas vivo counts: all sends (10070) and saved list payloads (10252). */
    private enum Quota { TOTAL, LIST_PAYLOAD }

    private final ChannelSettings settings;
    private final HttpClient http;
    private final ObjectMapper mapper = new ObjectMapper();
    private final Map<String, AuthToken> tokens = new ConcurrentHashMap<>();
    private final Map<String, Object> tokenLocks = new ConcurrentHashMap<>();
    private final Map<String, SavedPayload> payloads = new ConcurrentHashMap<>();
    private final Map<String, Instant> quotaSpentUntil = new ConcurrentHashMap<>();

    private record AuthToken(String value, Instant fetched) {}

    private record SavedPayload(String vivoTaskId, Instant saved) {}

    /**
     * A request-level failure: every target of the call gets {@link #outcome}. {@link #authTokenRejected}: the push
     * answered that our authToken is not valid (expired, revoked, other app), worth one refresh.
     */
    private static final class Failure extends Exception {
        final Outcome outcome;
        final boolean authTokenRejected;

        Failure(Outcome outcome, boolean authTokenRejected) {
            super(outcome.reason(), null, false, false);
            this.outcome = outcome;
            this.authTokenRejected = authTokenRejected;
        }

        Failure(Outcome outcome) {
            this(outcome, false);
        }
    }

    public VivoAdapter(ChannelSettings settings) {
        this.settings = settings;
        this.http = VendorHttp.jdkTrustClient(settings);
    }

    @Override
    public Channel channel() {
        return Channel.VIVO;
    }

    @Override
    public int maxTargetsPerRequest() {
        return MAX_TARGETS;
    }

    @Override
    public List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        if (deliveries.isEmpty()) {
            return List.of();
        }
        if (notification.isPassThrough()) {
            // vivo's server API has notification messages only (no pass-through for third-party apps).
            return VendorHttp.all(deliveries.size(), Outcome.failed("vendor_d_no_pass_through"));
        }
        String stale = null;
        try {
            ObjectNode message = VivoMessage.build(credentials, notification, settings.receiptUrl(credentials));
            checkQuota(credentials, Quota.TOTAL);
            for (int attempt = 0; ; attempt++) {
                String token = token(credentials, stale);
                try {
                    return deliveries.size() == 1
                            ? sendSingle(credentials, token, message, deliveries.get(0))
                            : sendList(credentials, token, message, notification.taskId(), deliveries);
                } catch (Failure e) {
                    if (!e.authTokenRejected || attempt > 0) {
                        throw e;
                    }
                    stale = token;
                }
            }
        } catch (VivoMessage.Unsendable e) {
            return VendorHttp.all(deliveries.size(), Outcome.failed(e.getMessage()));
        } catch (Failure e) {
            return VendorHttp.all(deliveries.size(), e.outcome);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return VendorHttp.all(deliveries.size(), Outcome.retry("interrupted"));
        } catch (RuntimeException e) {
            return VendorHttp.all(deliveries.size(), Outcome.retry("vendor_d_error " + e));
        }
    }

    @Override
    public void close() {
        tokens.clear();
        payloads.clear();
        quotaSpentUntil.clear();
    }

    // ---- auth ----

    /** The cached authToken, fetched when missing, old, or equal to {@code stale} (refused by the provider). */
    private String token(Credentials credentials, String stale) throws Failure, InterruptedException {
        String key = credentials.cacheKey();
        AuthToken current = tokens.get(key);
        if (usable(current, stale)) {
            return current.value();
        }
        synchronized (tokenLocks.computeIfAbsent(key, k -> new Object())) {
            current = tokens.get(key);
            if (usable(current, stale)) {
                return current.value();
            }
            AuthToken fresh = fetchToken(credentials);
            tokens.put(key, fresh);
            dropOtherVersions(credentials);
            return fresh.value();
        }
    }

    private static boolean usable(AuthToken token, String stale) {
        return token != null && !token.value().equals(stale)
                && token.fetched().plus(TOKEN_REFRESH).isAfter(Instant.now());
    }

    /** A re-uploaded certificate gets a new cache key: forget the state of the app's older versions. */
    private void dropOtherVersions(Credentials credentials) {
        String prefix = appOf(credentials);
        String key = credentials.cacheKey();
        tokens.keySet().removeIf(k -> k.startsWith(prefix) && !k.equals(key));
        tokenLocks.keySet().removeIf(k -> k.startsWith(prefix) && !k.equals(key));
        payloads.keySet().removeIf(k -> k.startsWith(prefix) && !k.startsWith(key + "#"));
    }

    /** Our app and environment: what the cache keys of all its certificate versions start with. */
    private static String appOf(Credentials credentials) {
        return credentials.appId() + "/" + credentials.environment() + "/";
    }

    private AuthToken fetchToken(Credentials credentials) throws Failure, InterruptedException {
        String appId = nullToEmpty(credentials.providerAppId()).trim();
        String appKey = nullToEmpty(credentials.appKey()).trim();
        String appSecret = nullToEmpty(credentials.appSecret()).trim();
        long timestamp = System.currentTimeMillis();
        ObjectNode body = mapper.createObjectNode();
        VivoMessage.putAppId(body, appId);
        body.put("appKey", appKey);
        body.put("timestamp", timestamp);
        body.put("sign", authSign(appId, appKey, timestamp, appSecret));
        URI uri = settings.authUrl().map(u -> VendorHttp.endpoint(u, AUTH_PATH))
                .orElseGet(() -> resolve(credentials, AUTH_PATH));
        JsonNode answer = post(uri, body, null);
        int result = answer.path("result").asInt(-1);
        String token = answer.path("authToken").asText("");
        if (result != RESULT_OK || token.isEmpty()) {
            // credentials refused: retried (Outcome.RETRY), a re-uploaded certificate may fix them meanwhile
            throw new Failure(Outcome.retry("vendor_d_auth_refused " + result + " " + answer.path("desc").asText("")));
        }
        return new AuthToken(token, Instant.now());
    }

    /** {@code md5(appId + appKey + timestamp + appSecret)}, lower-case hex (vivo server API 1.1). */
    public static String authSign(String appId, String appKey, long timestamp, String appSecret) {
        return md5Hex(appId.trim() + appKey.trim() + timestamp + appSecret.trim());
    }

    // ---- push ----

    private List<Outcome> sendSingle(Credentials credentials, String token, ObjectNode message, Delivery delivery)
            throws Failure, InterruptedException {
        ObjectNode body = message.deepCopy();
        body.put("regId", delivery.token());
        body.put("requestId", UUID.randomUUID().toString());
        JsonNode answer = post(resolve(credentials, SEND_PATH), body, token);
        JsonNode invalidUser = answer.get("invalidUser");
        if (invalidUser != null && invalidUser.isObject()) { // the SDK's Result.invalidUser: the regId is dead
            return List.of(invalidUser(invalidUser.path("status").asText("")));
        }
        int result = answer.path("result").asInt(-1);
        if (result == RESULT_OK) {
            return List.of(Outcome.ACCEPTED);
        }
        if (result == RESULT_REGID_INVALID) {
            return List.of(Outcome.rejected("vendor_d_" + result));
        }
        throw failure(credentials, answer);
    }

    private List<Outcome> sendList(Credentials credentials, String token, ObjectNode message, long taskId,
            List<Delivery> deliveries) throws Failure, InterruptedException {
        String payloadKey = credentials.cacheKey() + "#" + taskId;
        for (int attempt = 0; ; attempt++) {
            String vivoTaskId = cachedPayload(payloadKey);
            boolean cached = vivoTaskId != null;
            if (!cached) {
                vivoTaskId = savePayload(credentials, token, message, payloadKey);
            }
            ObjectNode body = mapper.createObjectNode();
            VivoMessage.putAppId(body, credentials.providerAppId());
            ArrayNode regIds = body.putArray("regIds");
            for (Delivery delivery : deliveries) {
                regIds.add(delivery.token());
            }
            body.put("taskId", vivoTaskId);
            body.put("requestId", UUID.randomUUID().toString());
            JsonNode answer = post(resolve(credentials, PUSH_TO_LIST_PATH), body, token);
            int result = answer.path("result").asInt(-1);
            if (result == RESULT_OK) {
                return listOutcomes(answer, deliveries);
            }
            Failure failure = failure(credentials, answer);
            if (failure.authTokenRejected || failure.outcome.kind() == Outcome.Kind.RETRY) {
                throw failure; // the saved message is still good
            }
            payloads.remove(payloadKey);
            // a cached vivo taskId may have expired at vivo: save the message again, once
            if (!cached || attempt > 0 || result == RESULT_DAILY_QUOTA || result == RESULT_LIST_PAYLOAD_QUOTA) {
                throw failure;
            }
        }
    }

    private static List<Outcome> listOutcomes(JsonNode answer, List<Delivery> deliveries) {
        Map<String, String> invalid = new HashMap<>();
        for (JsonNode user : answer.path("invalidUsers")) {
            invalid.put(user.path("userid").asText(), user.path("status").asText(""));
        }
        List<Outcome> outcomes = new ArrayList<>(deliveries.size());
        for (Delivery delivery : deliveries) {
            String status = invalid.get(delivery.token());
            outcomes.add(status == null ? Outcome.ACCEPTED : invalidUser(status));
        }
        return outcomes;
    }

    /**
     * An invalid user's status: 1 regId does not exist, 2 app uninstalled or notifications off, 3 not online for 90
     * days: the token is dead. 4 not a test device (push_mode 1): the push cannot reach it, the token is fine.
     */
    private static Outcome invalidUser(String status) {
        return switch (status) {
            case "1", "2", "3" -> Outcome.rejected("vendor_d_invalid_user_" + status);
            case "4" -> Outcome.failed("vendor_d_not_a_test_device");
            default -> Outcome.failed("vendor_d_invalid_user_" + status);
        };
    }

    /** The vivo taskId of the task's message saved less than {@link #PAYLOAD_REUSE} ago, or null. */
    private String cachedPayload(String key) {
        SavedPayload saved = payloads.get(key);
        return saved != null && saved.saved().plus(PAYLOAD_REUSE).isAfter(Instant.now()) ? saved.vivoTaskId() : null;
    }

    private String savePayload(Credentials credentials, String token, ObjectNode message, String key)
            throws Failure, InterruptedException {
        checkQuota(credentials, Quota.TOTAL); // 10070 also means: no saveListPayload that day
        checkQuota(credentials, Quota.LIST_PAYLOAD);
        ObjectNode body = message.deepCopy();
        body.put("requestId", UUID.randomUUID().toString());
        JsonNode answer = post(resolve(credentials, SAVE_LIST_PAYLOAD_PATH), body, token);
        int result = answer.path("result").asInt(-1);
        String vivoTaskId = answer.path("taskId").asText("");
        if (result != RESULT_OK || vivoTaskId.isEmpty()) {
            throw failure(credentials, answer);
        }
        if (payloads.size() > 10_000) {
            Instant cutoff = Instant.now().minus(PAYLOAD_REUSE);
            payloads.values().removeIf(p -> p.saved().isBefore(cutoff));
        }
        payloads.put(key, new SavedPayload(vivoTaskId, Instant.now()));
        return vivoTaskId;
    }

    /** A non-zero result of a push call: auth (refresh once), rate limit (retry), quota or refusal (failed). */
    private Failure failure(Credentials credentials, JsonNode answer) {
        int result = answer.path("result").asInt(-1);
        String reason = "vendor_d_" + result + " " + answer.path("desc").asText("");
        if (result == RESULT_AUTH_TOKEN_INVALID || result == RESULT_APP_MISMATCH) {
            return new Failure(Outcome.retry(reason), true);
        }
        if (result == RESULT_DAILY_QUOTA || result == RESULT_LIST_PAYLOAD_QUOTA) {
            Quota quota = result == RESULT_DAILY_QUOTA ? Quota.TOTAL : Quota.LIST_PAYLOAD;
            quotaSpentUntil.put(quotaKey(credentials, quota), LocalDate.now(CHINA).plusDays(1).atStartOfDay()
                    .toInstant(CHINA));
            return new Failure(Outcome.failed(reason + " (daily quota spent, not called again before 00:00 China time)"));
        }
        if (TRANSIENT_RESULTS.contains(result)) {
            return new Failure(Outcome.retry(reason));
        }
        return new Failure(Outcome.failed(reason));
    }

    /** FAILED without calling vivo while a quota it said was spent today is still spent. */
    private void checkQuota(Credentials credentials, Quota quota) throws Failure {
        String key = quotaKey(credentials, quota);
        Instant until = quotaSpentUntil.get(key);
        if (until == null) {
            return;
        }
        if (until.isAfter(Instant.now())) {
            throw new Failure(Outcome.failed("vendor_d_" + (quota == Quota.TOTAL ? RESULT_DAILY_QUOTA
                    : RESULT_LIST_PAYLOAD_QUOTA) + " daily quota spent, not called again before 00:00 China time"));
        }
        quotaSpentUntil.remove(key, until);
    }

    private static String quotaKey(Credentials credentials, Quota quota) {
        return appOf(credentials) + quota;
    }

    // ---- HTTP ----

    private URI resolve(Credentials credentials, String path) {
        return VendorHttp.resolve(settings.baseUrl(credentials.environment()), path);
    }

    /** POSTs JSON; any answer that is not HTTP 200 with a JSON body is a request-level retry. */
    private JsonNode post(URI uri, ObjectNode body, String authToken) throws Failure, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/json;charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes(body)));
        if (authToken != null) {
            request.header("authToken", authToken);
        }
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (java.net.http.HttpTimeoutException e) {
            throw new Failure(Outcome.retry("vendor_d_timeout"));
        } catch (IOException e) {
            throw new Failure(Outcome.retry("vendor_d_io " + e.getClass().getSimpleName()));
        }
        if (response.statusCode() != 200) {
            throw new Failure(Outcome.retry("vendor_d_http_" + response.statusCode(), VendorHttp.retryAfter(response)));
        }
        try {
            JsonNode answer = mapper.readTree(response.body());
            if (answer == null || !answer.isObject()) {
                throw new Failure(Outcome.retry("vendor_d_bad_answer"));
            }
            return answer;
        } catch (IOException e) {
            throw new Failure(Outcome.retry("vendor_d_bad_answer"));
        }
    }

    private byte[] bytes(ObjectNode body) {
        try {
            return mapper.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String md5Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}

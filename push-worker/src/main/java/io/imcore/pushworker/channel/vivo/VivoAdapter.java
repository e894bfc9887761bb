package io.imcore.pushworker.channel.vivo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.push.Channel;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * vendor_d: vivo push server API (docs/channels/vendor_d.md).
 *
 * <p>Auth: {@code POST /message/auth} with {@code sign = md5(appId + appKey + timestamp + appSecret)}; the authToken
 * (valid 24 h) is cached per {@link Credentials#cacheKey()}, renewed after {@link #TOKEN_REFRESH} and once when a push
 * answers that the token is not valid. Two or more targets: the message is saved once per task and credentials
 * ({@code /message/saveListPayload}, the vivo taskId is cached) and sent with {@code /message/pushToList} (up to
 * 1000 regIds); a single target goes through {@code /message/send} (pushToList needs at least two regIds).
 */
public class VivoAdapter implements ChannelAdapter {

    static final String AUTH_PATH = "/message/auth";
    static final String SAVE_LIST_PAYLOAD_PATH = "/message/saveListPayload";
    static final String PUSH_TO_LIST_PATH = "/message/pushToList";
    static final String SEND_PATH = "/message/send";

    /** Title and content limits in vivo's units: a CJK character counts two, ASCII and emoji one. */
    public static final int TITLE_MAX = 40;
    public static final int CONTENT_MAX = 100;
    /** skipContent limit for skipType 3/4. */
    public static final int SKIP_CONTENT_MAX = 1024;
    static final int TTL_MIN_SECONDS = 900;
    static final int TTL_MAX_SECONDS = 7 * 24 * 3600;
    static final int CALLBACK_MAX = 128;
    static final int MAX_TARGETS = 1000;

    /** Result codes (docs/channels/vendor_d.md has the table). */
    static final int RESULT_OK = 0;
    static final int RESULT_AUTH_TOKEN_INVALID = 10000;
    static final int RESULT_APP_MISMATCH = 10094;
    static final int RESULT_DAILY_QUOTA = 10070;
    static final int RESULT_LIST_PAYLOAD_QUOTA = 10252;
    static final int RESULT_REGID_INVALID = 10302;

    /** vivo tokens live 24 h; vivo asks to renew them every one to two hours. */
    static final Duration TOKEN_REFRESH = Duration.ofHours(1);
    /** How long a saved list payload (vivo taskId) is reused for further batches of the same task. */
    static final Duration PAYLOAD_REUSE = Duration.ofMinutes(30);
    private static final ZoneOffset CHINA = ZoneOffset.ofHours(8);

    private final ChannelSettings settings;
    private final HttpClient http;
    private final ObjectMapper mapper = new ObjectMapper();
    private final Map<String, AuthToken> tokens = new ConcurrentHashMap<>();
    private final Map<String, Object> tokenLocks = new ConcurrentHashMap<>();
    private final Map<String, SavedPayload> payloads = new ConcurrentHashMap<>();

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
        return Channel.VENDOR_D;
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
            return Collections.nCopies(deliveries.size(), Outcome.failed("vendor_d_no_pass_through"));
        }
        String stale = null;
        try {
            for (int attempt = 0; ; attempt++) {
                String token = token(credentials, stale);
                try {
                    return deliveries.size() == 1
                            ? sendSingle(credentials, token, notification, deliveries.get(0))
                            : sendList(credentials, token, notification, deliveries);
                } catch (Failure e) {
                    if (!e.authTokenRejected || attempt > 0) {
                        throw e;
                    }
                    stale = token;
                }
            }
        } catch (Failure e) {
            return Collections.nCopies(deliveries.size(), e.outcome);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Collections.nCopies(deliveries.size(), Outcome.retry("interrupted"));
        } catch (RuntimeException e) {
            return Collections.nCopies(deliveries.size(), Outcome.retry("vendor_d_error " + e));
        }
    }

    @Override
    public void close() {
        tokens.clear();
        payloads.clear();
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
        String prefix = credentials.appId() + "/" + credentials.environment() + "/";
        String key = credentials.cacheKey();
        tokens.keySet().removeIf(k -> k.startsWith(prefix) && !k.equals(key));
        tokenLocks.keySet().removeIf(k -> k.startsWith(prefix) && !k.equals(key));
        payloads.keySet().removeIf(k -> k.startsWith(prefix) && !k.startsWith(key + "#"));
    }

    private AuthToken fetchToken(Credentials credentials) throws Failure, InterruptedException {
        String appId = nullToEmpty(credentials.providerAppId()).trim();
        String appKey = nullToEmpty(credentials.appKey()).trim();
        String appSecret = nullToEmpty(credentials.appSecret()).trim();
        long timestamp = System.currentTimeMillis();
        ObjectNode body = mapper.createObjectNode();
        putAppId(body, appId);
        body.put("appKey", appKey);
        body.put("timestamp", timestamp);
        body.put("sign", authSign(appId, appKey, timestamp, appSecret));
        URI uri = settings.authUrl()
                .map(u -> u.getPath() == null || u.getPath().isEmpty() || u.getPath().equals("/")
                        ? URI.create(u.toString().replaceAll("/$", "") + AUTH_PATH) : u)
                .orElseGet(() -> resolve(credentials, AUTH_PATH));
        JsonNode answer = post(uri, body, null);
        int result = answer.path("result").asInt(-1);
        String token = answer.path("authToken").asText("");
        if (result != RESULT_OK || token.isEmpty()) {
            throw new Failure(Outcome.retry("vendor_d_auth_refused " + result + " " + answer.path("desc").asText("")));
        }
        return new AuthToken(token, Instant.now());
    }

    /** {@code md5(appId + appKey + timestamp + appSecret)}, lower-case hex (vivo server API 1.1). */
    public static String authSign(String appId, String appKey, long timestamp, String appSecret) {
        return md5Hex(appId.trim() + appKey.trim() + timestamp + appSecret.trim());
    }

    // ---- push ----

    private List<Outcome> sendSingle(Credentials credentials, String token, Notification notification,
            Delivery delivery) throws Failure, InterruptedException {
        ObjectNode body = message(credentials, notification);
        body.put("regId", delivery.token());
        JsonNode answer = post(resolve(credentials, SEND_PATH), body, token);
        int result = answer.path("result").asInt(-1);
        if (result == RESULT_OK) {
            return List.of(Outcome.ACCEPTED);
        }
        if (result == RESULT_REGID_INVALID) {
            return List.of(Outcome.rejected("vendor_d_" + result));
        }
        throw failure(answer);
    }

    private List<Outcome> sendList(Credentials credentials, String token, Notification notification,
            List<Delivery> deliveries) throws Failure, InterruptedException {
        String payloadKey = credentials.cacheKey() + "#" + notification.taskId();
        String vivoTaskId = savedPayload(credentials, token, notification, payloadKey);
        ObjectNode body = mapper.createObjectNode();
        putAppId(body, nullToEmpty(credentials.providerAppId()).trim());
        ArrayNode regIds = body.putArray("regIds");
        for (Delivery delivery : deliveries) {
            regIds.add(delivery.token());
        }
        body.put("taskId", vivoTaskId);
        body.put("requestId", UUID.randomUUID().toString());
        body.put("pushMode", pushMode(notification));
        JsonNode answer = post(resolve(credentials, PUSH_TO_LIST_PATH), body, token);
        int result = answer.path("result").asInt(-1);
        if (result != RESULT_OK) {
            payloads.remove(payloadKey); // the saved payload may be what was refused: save it again next time
            throw failure(answer);
        }
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
     * invalidUsers status: 1 regId does not exist, 2 app uninstalled or notifications off, 3 not online for a long
     * time (regId expired): the token is dead. 4 "not a test device" (push_mode 1 only) is not a dead token: retry.
     */
    private static Outcome invalidUser(String status) {
        return switch (status) {
            case "1", "2", "3" -> Outcome.rejected("vendor_d_invalid_user_" + status);
            default -> Outcome.retry("vendor_d_invalid_user_" + status);
        };
    }

    private String savedPayload(Credentials credentials, String token, Notification notification, String key)
            throws Failure, InterruptedException {
        SavedPayload saved = payloads.get(key);
        if (saved != null && saved.saved().plus(PAYLOAD_REUSE).isAfter(Instant.now())) {
            return saved.vivoTaskId();
        }
        ObjectNode body = message(credentials, notification);
        JsonNode answer = post(resolve(credentials, SAVE_LIST_PAYLOAD_PATH), body, token);
        int result = answer.path("result").asInt(-1);
        String vivoTaskId = answer.path("taskId").asText("");
        if (result != RESULT_OK || vivoTaskId.isEmpty()) {
            throw failure(answer);
        }
        if (payloads.size() > 10_000) {
            Instant cutoff = Instant.now().minus(PAYLOAD_REUSE);
            payloads.values().removeIf(p -> p.saved().isBefore(cutoff));
        }
        payloads.put(key, new SavedPayload(vivoTaskId, Instant.now()));
        return vivoTaskId;
    }

    /** A non-zero result of a push call: auth (refresh once), quota (retry tomorrow) or another retry. */
    private static Failure failure(JsonNode answer) {
        int result = answer.path("result").asInt(-1);
        String reason = "vendor_d_" + result + " " + answer.path("desc").asText("");
        if (result == RESULT_AUTH_TOKEN_INVALID || result == RESULT_APP_MISMATCH) {
            return new Failure(Outcome.retry(reason), true);
        }
        if (result == RESULT_DAILY_QUOTA || result == RESULT_LIST_PAYLOAD_QUOTA) {
            // vivo: a quota answer means "do not call this interface again today" (China time).
            Instant midnight = LocalDate.now(CHINA).plusDays(1).atStartOfDay().toInstant(CHINA);
            return new Failure(Outcome.retry(reason, Duration.between(Instant.now(), midnight)));
        }
        return new Failure(Outcome.retry(reason));
    }

    /** The notification message fields, shared by saveListPayload and send. */
    ObjectNode message(Credentials credentials, Notification notification) {
        ObjectNode settingsOfChannel = notification.channelSettings(Channel.VENDOR_D);
        ObjectNode body = mapper.createObjectNode();
        putAppId(body, nullToEmpty(credentials.providerAppId()).trim());
        body.put("notifyType", 4); // ring and vibrate: vivo has no per-message sound file
        String content = notification.body().isEmpty() && notification.bigText() != null
                ? notification.bigText() : notification.body();
        String title = notification.title().isEmpty() ? content : notification.title();
        body.put("title", truncate(title, TITLE_MAX));
        body.put("content", truncate(content, CONTENT_MAX));
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long ttl = end.asLong() - Instant.now().getEpochSecond();
            body.put("timeToLive", (int) Math.max(TTL_MIN_SECONDS, Math.min(TTL_MAX_SECONDS, ttl)));
        }
        String intent = Notification.text(settingsOfChannel, "intent");
        if ("intent".equals(Notification.text(settingsOfChannel, "click_action")) && intent != null) {
            body.put("skipType", 4);
            body.put("skipContent", intent.length() > SKIP_CONTENT_MAX ? intent.substring(0, SKIP_CONTENT_MAX) : intent);
        } else {
            body.put("skipType", 1);
        }
        body.put("networkType", -1);
        ObjectNode ext = notification.ext();
        if (!ext.isEmpty()) {
            ObjectNode custom = body.putObject("clientCustomMap");
            for (Iterator<Map.Entry<String, JsonNode>> it = ext.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode value = field.getValue();
                custom.put(field.getKey(), value.isTextual() ? value.asText() : value.toString());
            }
        }
        body.put("classification", settingsOfChannel.path("classification").asInt(0) == 1 ? 1 : 0);
        int pushMode = pushMode(notification);
        body.put("pushMode", pushMode);
        body.put("requestId", UUID.randomUUID().toString());
        settings.receiptUrl().ifPresent(url -> {
            String callback = url.toString();
            if (callback.length() <= CALLBACK_MAX) {
                ObjectNode extra = body.putObject("extra");
                extra.put("callback", callback);
                extra.put("callback.param", Long.toString(notification.taskId()));
            }
        });
        return body;
    }

    private static int pushMode(Notification notification) {
        return notification.channelSettings(Channel.VENDOR_D).path("push_mode").asInt(0) == 1 ? 1 : 0;
    }

    /** vivo's appId is a number in its examples; sent as a number when it is one. */
    private static void putAppId(ObjectNode body, String appId) {
        if (!appId.isEmpty() && appId.length() < 19 && appId.chars().allMatch(Character::isDigit)) {
            body.put("appId", Long.parseLong(appId));
        } else {
            body.put("appId", appId);
        }
    }

    // ---- HTTP ----

    private URI resolve(Credentials credentials, String path) {
        String base = settings.baseUrl(credentials.environment()).toString();
        return URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) + path : base + path);
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
            Duration retryAfter = response.headers().firstValue("Retry-After").map(VivoAdapter::seconds).orElse(null);
            throw new Failure(Outcome.retry("vendor_d_http_" + response.statusCode(), retryAfter));
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

    private static Duration seconds(String value) {
        try {
            return Duration.ofSeconds(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ---- texts ----

    /** vivo counts a CJK (non-ASCII BMP) character as two, an ASCII character or an emoji as one. */
    public static int vivoLength(String text) {
        int length = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            length += weight(cp);
            i += Character.charCount(cp);
        }
        return length;
    }

    private static int weight(int codePoint) {
        return codePoint < 0x80 || Character.isSupplementaryCodePoint(codePoint) ? 1 : 2;
    }

    /** Cuts {@code text} to at most {@code max} in vivo's units, never inside a surrogate pair. */
    public static String truncate(String text, int max) {
        int length = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            length += weight(cp);
            if (length > max) {
                return text.substring(0, i);
            }
            i += Character.charCount(cp);
        }
        return text;
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

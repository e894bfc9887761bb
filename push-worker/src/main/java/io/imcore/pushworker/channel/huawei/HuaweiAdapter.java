package io.imcore.pushworker.channel.huawei;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.TokenBatchAdapter;
import io.imcore.pushworker.channel.http.VendorHttp;
import io.imcore.pushworker.channel.http.VendorTokenCache;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Huawei Push Kit, HTTP v1 API (docs/channels/huawei.md). OAuth 2.0 client credentials (app_id = client
 * id, app_secret = client secret) give a Bearer token; {@code POST {base}/v1/{appId}/messages:send} carries up to
 * 1000 tokens. One request per send, except that with a badge class the deliveries are grouped by badge number
 * (the badge is per device, the message per request). {@link HuaweiMessage} builds each request; a message Huawei
 * cannot carry, and Huawei's answers that no retry can change, fail the targets at once.
 */
public class HuaweiAdapter extends TokenBatchAdapter {

    static final int MAX_TOKENS = 1000;
    static final String TOKEN_PATH = "/oauth2/v3/token";

    /**
     * Answers about the request itself or the app (Sending Downlink Messages, result codes; server demo's
     * ResponceCodeProcesser): the same request fails the same way, so the targets fail at once.
     */
    static final Set<String> PERMANENT_CODES = Set.of(
            "80100001", // some request parameters are incorrect
            "80100003", // illegal payload: incorrect message structure
            "80100004", // the message expiry (ttl) is earlier than now
            "80100013", // collapse_key is illegal
            "80100016", // the message contains sensitive information
            "80100018", // the message body cannot pass the verification
            "80300002", // the app is forbidden to send (no permission, or penalised)
            "80300008", // the message body exceeds 4K
            "80300010", // too many tokens
            "80300011", // no permission to send high-level (importance HIGH) notifications
            "80300013"); // invalid receipt address

    public HuaweiAdapter(ChannelSettings settings) {
        super(Channel.HUAWEI, MAX_TOKENS, settings);
    }

    @Override
    protected List<Outcome> sendWithToken(Credentials credentials, String token, Notification notification,
            List<Delivery> deliveries) {
        int n = deliveries.size();
        String badgeClass = notification.isPassThrough() ? null
                : Notification.text(notification.channelSettings(Channel.HUAWEI), "badge_class");
        // groups of delivery indexes sharing one request body
        Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            Integer badge = badgeClass == null ? null : deliveries.get(i).badge();
            groups.computeIfAbsent(badge == null ? -1 : HuaweiMessage.badgeNumber(badge), b -> new ArrayList<>())
                    .add(i);
        }
        URI uri = VendorHttp.resolve(settings.baseUrl(credentials.environment()),
                "/v1/" + credentials.providerAppId() + "/messages:send");
        long now = System.currentTimeMillis() / 1000;
        Outcome[] out = new Outcome[n];
        List<Map.Entry<Integer, List<Integer>>> pending = new ArrayList<>();
        Map<Integer, HuaweiMessage> messages = new HashMap<>();
        for (Map.Entry<Integer, List<Integer>> group : groups.entrySet()) {
            HuaweiMessage message = HuaweiMessage.build(notification, credentials, badgeClass,
                    group.getKey() < 0 ? null : group.getKey(), now);
            if (message.failure() != null) {
                Outcome failed = Outcome.failed(message.failure());
                group.getValue().forEach(i -> out[i] = failed);
            } else {
                messages.put(group.getKey(), message);
                pending.add(group);
            }
        }
        boolean refreshed = false;
        while (!pending.isEmpty()) {
            List<Map.Entry<Integer, List<Integer>>> authRefused = new ArrayList<>();
            int wave = Math.max(1, settings.maxConcurrentRequests());
            for (int from = 0; from < pending.size(); from += wave) {
                List<Map.Entry<Integer, List<Integer>>> slice =
                        pending.subList(from, Math.min(pending.size(), from + wave));
                List<CompletableFuture<Boolean>> calls = new ArrayList<>();
                for (Map.Entry<Integer, List<Integer>> group : slice) {
                    String body = messages.get(group.getKey())
                            .withTokens(group.getValue().stream().map(i -> deliveries.get(i).token()).toList());
                    HttpRequest request = HttpRequest.newBuilder(uri)
                            .timeout(settings.requestTimeout())
                            .header("Content-Type", "application/json; charset=UTF-8")
                            .header("Authorization", "Bearer " + token)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build();
                    calls.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                            .handle((response, error) -> classify(response, error, group.getValue(), deliveries,
                                    out)));
                }
                for (int i = 0; i < calls.size(); i++) {
                    if (calls.get(i).join()) {
                        authRefused.add(slice.get(i));
                    }
                }
            }
            if (authRefused.isEmpty()) {
                break;
            }
            if (refreshed) {
                authRefused.forEach(g -> g.getValue().forEach(i -> out[i] = Outcome.retry("auth refused")));
                break;
            }
            refreshed = true;
            try {
                token = tokens.refresh(credentials, token);
            } catch (VendorTokenCache.AuthException e) {
                Outcome retry = authRetry(e);
                authRefused.forEach(g -> g.getValue().forEach(i -> out[i] = retry));
                break;
            }
            pending = authRefused;
        }
        return List.of(out);
    }

    /** Fills the group's outcomes; true when the access token was refused (the caller refreshes it once). */
    private static boolean classify(HttpResponse<String> response, Throwable error, List<Integer> group,
            List<Delivery> deliveries, Outcome[] out) {
        if (error != null) {
            Outcome retry = Outcome.retry("io: " + rootMessage(error));
            group.forEach(i -> out[i] = retry);
            return false;
        }
        int status = response.statusCode();
        JsonNode json = VendorHttp.json(response.body());
        String code = json == null ? "" : json.path("code").asText("");
        if (status == 401 || code.equals("80200001") || code.equals("80200003")) {
            return true;
        }
        String reason = (code.isEmpty() ? "http " + status : code) + " "
                + (json == null ? "" : json.path("msg").asText(""));
        switch (code) {
            case "80000000" -> group.forEach(i -> out[i] = Outcome.ACCEPTED);
            case "80100000" -> {
                Set<String> illegal = illegalTokens(json.path("msg").asText(""));
                for (int i : group) {
                    out[i] = illegal.contains(deliveries.get(i).token()) ? Outcome.rejected("80100000 illegal token")
                            : Outcome.ACCEPTED;
                }
            }
            case "80300007" -> group.forEach(i -> out[i] = Outcome.rejected("80300007 invalid token"));
            default -> {
                Outcome outcome = isTransient(code, status)
                        ? Outcome.retry(reason.trim(), VendorHttp.retryAfter(response))
                        : Outcome.failed(reason.trim());
                group.forEach(i -> out[i] = outcome);
            }
        }
        return false;
    }

    /**
     * Worth retrying: Huawei's internal errors (81000001, 80600003 its OAuth service failed), flow control (HTTP 503)
     * and any 5xx, 408 and 429. Every other answer, a documented permanent code or an unknown code on a 2xx/4xx, fails.
     */
    static boolean isTransient(String code, int status) {
        if (PERMANENT_CODES.contains(code)) {
            return false;
        }
        return code.equals("81000001") || code.equals("80600003") || status >= 500 || status == 408 || status == 429;
    }

    /** The illegal tokens listed in an 80100000 answer's msg (a JSON string). */
    static Set<String> illegalTokens(String msg) {
        Set<String> out = new HashSet<>();
        JsonNode parsed = VendorHttp.json(msg);
        if (parsed != null) {
            for (String field : new String[] {"illegal_tokens", "illegalTokens"}) {
                JsonNode list = parsed.get(field);
                if (list != null && list.isArray()) {
                    list.forEach(t -> out.add(t.asText()));
                } else if (list != null && list.isObject()) { // v3 form: reason -> tokens
                    list.forEach(tokens -> tokens.forEach(t -> out.add(t.asText())));
                }
            }
        }
        return out;
    }

    @Override
    protected VendorTokenCache.Token fetchToken(Credentials credentials) throws VendorTokenCache.AuthException {
        URI uri = settings.authUrl().map(u -> VendorHttp.endpoint(u, TOKEN_PATH))
                .orElseGet(() -> VendorHttp.resolve(settings.baseUrl(credentials.environment()), TOKEN_PATH));
        String form = VendorHttp.form(Map.of(
                "grant_type", "client_credentials",
                "client_id", nullToEmpty(credentials.providerAppId()),
                "client_secret", nullToEmpty(credentials.appSecret())));
        HttpResponse<String> response;
        try {
            response = exchange(formPost(uri, "application/x-www-form-urlencoded", form).build());
        } catch (Unanswered e) {
            throw new VendorTokenCache.AuthException(e.reason(failure -> "token endpoint: " + rootMessage(failure)));
        }
        JsonNode json = VendorHttp.json(response.body());
        if (response.statusCode() != 200 || json == null || !json.hasNonNull("access_token")) {
            String why = json == null ? "" : json.path("error").asText("") + " " + json.path("error_description").asText("");
            throw new VendorTokenCache.AuthException("token refused: http " + response.statusCode() + " " + why.trim());
        }
        return new VendorTokenCache.Token(json.get("access_token").asText(),
                Duration.ofSeconds(json.path("expires_in").asLong(3600)));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}

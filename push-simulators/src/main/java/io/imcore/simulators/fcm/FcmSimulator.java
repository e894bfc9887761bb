package io.imcore.simulators.fcm;

import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The cloud provider: FCM HTTP v1 ({@code POST /v1/projects/<project>/messages:send}) and Google's OAuth2 token
 * endpoint for service accounts ({@code POST /token}, the jwt-bearer grant), over plain HTTP (HTTP/1.1 or h2c).
 *
 * <p>Service accounts registered with {@code POST /_sim/apps {"certificate": <service-account JSON>}}
 * ({@link #registerServiceAccount}) have their assertions' RS256 signatures verified and may only send to their own
 * project; without registrations any well-formed assertion is accepted. docs/channels/cloud.md lists the checks.
 */
public class FcmSimulator extends ProviderSimulator {

    /** A token starting with this (it also starts with {@link Faults#INVALID_PREFIX}) gets 400 INVALID_ARGUMENT. */
    public static final String MALFORMED_PREFIX = "invalid-format";
    /** Access tokens this simulator issues are valid this long. */
    public static final long TOKEN_SECONDS = 3600;

    static final int MAX_PAYLOAD = 4096;
    private static final String SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
    private static final String CLOUD_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    private static final Pattern TTL = Pattern.compile("\\d{1,12}(\\.\\d{1,9})?s");
    private static final Set<String> RESERVED_DATA_KEYS = Set.of("from", "notification", "message_type");

    private record Account(String projectId, PublicKey publicKey) {}

    private record AccessToken(String clientEmail, long expiresAtMillis) {}

    private final Map<String, Account> accounts = new ConcurrentHashMap<>();
    private final Map<String, AccessToken> tokens = new ConcurrentHashMap<>();
    private final AtomicLong issuedTokens = new AtomicLong();
    private final AtomicLong messageIds = new AtomicLong();
    private final AtomicLong transientCount = new AtomicLong();

    @Override
    public String channel() {
        return "cloud";
    }

    @Override
    protected void routes(Router router) {
        router.post("/token").handler(this::token);
        router.postWithRegex("/v1/projects/([^/]+)/messages:send").handler(this::send);
        router.post("/_sim/apps").handler(ctx -> {
            try {
                registerServiceAccount(ctx.body().asJsonObject().getString("certificate"));
                json(ctx, 200, new JsonObject().put("ok", true));
            } catch (Exception e) {
                json(ctx, 400, new JsonObject().put("error", String.valueOf(e.getMessage())));
            }
        });
    }

    /** Registers a service-account JSON: its assertions must then carry a valid signature of its private key. */
    public void registerServiceAccount(String serviceAccountJson) throws Exception {
        JsonObject json = new JsonObject(serviceAccountJson);
        String pem = json.getString("private_key");
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        RSAPrivateCrtKey key =
                (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        PublicKey publicKey = KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
        accounts.put(json.getString("client_email"), new Account(json.getString("project_id"), publicKey));
    }

    /** Access tokens issued since the start or the last reset. */
    public long issuedTokens() {
        return issuedTokens.get();
    }

    /** Makes every access token issued so far unknown (as if they had expired). */
    public void revokeTokens() {
        tokens.clear();
    }

    @Override
    public void reset() {
        super.reset();
        accounts.clear();
        tokens.clear();
        issuedTokens.set(0);
        transientCount.set(0);
    }

    // ---- OAuth2 token endpoint

    private void token(RoutingContext ctx) {
        Map<String, String> form = form(ctx.body().asString());
        if (!"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))) {
            oauthError(ctx, "unsupported_grant_type", "Invalid grant_type");
            return;
        }
        String assertion = form.get("assertion");
        String email;
        try {
            email = checkAssertion(assertion, ctx.request().path());
        } catch (RuntimeException e) {
            email = null;
        }
        if (email == null) {
            oauthError(ctx, "invalid_grant", "Invalid JWT Signature.");
            return;
        }
        String accessToken = "ya29.sim-" + UUID.randomUUID();
        tokens.put(accessToken, new AccessToken(email, System.currentTimeMillis() + TOKEN_SECONDS * 1000));
        issuedTokens.incrementAndGet();
        reply(ctx, 200, new JsonObject().put("access_token", accessToken).put("expires_in", TOKEN_SECONDS)
                .put("token_type", "Bearer"));
    }

    /** The assertion's client_email when it is acceptable, else null. */
    private String checkAssertion(String assertion, String tokenPath) {
        if (assertion == null) {
            return null;
        }
        String[] parts = assertion.split("\\.");
        if (parts.length != 3) {
            return null;
        }
        Base64.Decoder decoder = Base64.getUrlDecoder();
        JsonObject header = new JsonObject(new String(decoder.decode(parts[0]), StandardCharsets.UTF_8));
        JsonObject claims = new JsonObject(new String(decoder.decode(parts[1]), StandardCharsets.UTF_8));
        String iss = claims.getString("iss");
        String aud = claims.getString("aud");
        String scope = claims.getString("scope");
        Object exp = claims.getValue("exp");
        Object iat = claims.getValue("iat");
        long now = System.currentTimeMillis() / 1000;
        if (!"RS256".equals(header.getString("alg")) || iss == null || aud == null || scope == null
                || !(exp instanceof Number) || !(iat instanceof Number)) {
            return null;
        }
        if (!tokenPath.equals(URI.create(aud).getPath())) {
            return null;
        }
        Set<String> scopes = Set.of(scope.split(" "));
        if (!scopes.contains(SCOPE) && !scopes.contains(CLOUD_SCOPE)) {
            return null;
        }
        long expires = ((Number) exp).longValue();
        long issued = ((Number) iat).longValue();
        if (expires < now || expires - issued > 3600 || issued > now + 300) {
            return null;
        }
        if (!accounts.isEmpty()) {
            Account account = accounts.get(iss);
            if (account == null) {
                return null;
            }
            try {
                Signature verifier = Signature.getInstance("SHA256withRSA");
                verifier.initVerify(account.publicKey());
                verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
                if (!verifier.verify(decoder.decode(parts[2]))) {
                    return null;
                }
            } catch (Exception e) {
                return null;
            }
        }
        return iss;
    }

    private void oauthError(RoutingContext ctx, String error, String description) {
        reply(ctx, 400, new JsonObject().put("error", error).put("error_description", description));
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new HashMap<>();
        if (body == null) {
            return out;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    // ---- messages:send

    private void send(RoutingContext ctx) {
        String project = ctx.pathParam("param0");
        Faults.Kind fault = faults().next();
        String authorization = ctx.request().getHeader("authorization");
        String accessToken = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).trim() : null;
        if (fault == Faults.Kind.AUTH) {
            if (accessToken != null) {
                tokens.remove(accessToken);
            }
            unauthenticated(ctx);
            return;
        }
        if (fault == Faults.Kind.QUOTA_SPENT) {
            // FCM v1 ErrorCode QUOTA_EXCEEDED (HTTP 429): "retry ... respecting the Retry-After header"
            error(ctx, 429, "RESOURCE_EXHAUSTED", "Quota exceeded.", "QUOTA_EXCEEDED", "3600");
            return;
        }
        if (fault == Faults.Kind.TRANSIENT) {
            if (transientCount.getAndIncrement() % 2 == 0) {
                error(ctx, 503, "UNAVAILABLE", "The service is currently unavailable.", "UNAVAILABLE", "1");
            } else {
                error(ctx, 429, "RESOURCE_EXHAUSTED", "Quota exceeded.", "QUOTA_EXCEEDED", "1");
            }
            return;
        }
        AccessToken known = accessToken == null ? null : tokens.get(accessToken);
        if (known == null || known.expiresAtMillis() < System.currentTimeMillis()) {
            unauthenticated(ctx);
            return;
        }
        Account account = accounts.get(known.clientEmail());
        if (account != null && !account.projectId().equals(project)) {
            error(ctx, 403, "PERMISSION_DENIED",
                    "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager"
                            + ".googleapis.com/projects/" + project + "' (or it may not exist).", null, null);
            return;
        }
        JsonObject message;
        try {
            message = ctx.body().asJsonObject().getJsonObject("message");
        } catch (RuntimeException e) {
            message = null;
        }
        if (message == null) {
            badRequest(ctx, "message", "Invalid JSON payload received.");
            return;
        }
        String invalid = checkMessage(message);
        if (invalid != null) {
            int colon = invalid.indexOf(':');
            badRequest(ctx, invalid.substring(0, colon), invalid.substring(colon + 1));
            return;
        }
        String token = message.getString("token");
        if (token.startsWith(MALFORMED_PREFIX)) {
            error(ctx, 400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token",
                    "INVALID_ARGUMENT", null);
            return;
        }
        if (Faults.isInvalid(token)) {
            error(ctx, 404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED", null);
            return;
        }
        if (faults().failsTransiently(token)) {
            error(ctx, 503, "UNAVAILABLE", "The service is currently unavailable.", "UNAVAILABLE", null);
            return;
        }
        recorder().delivered(token, message.encode());
        reply(ctx, 200, new JsonObject().put("name",
                "projects/" + project + "/messages/0:" + messageIds.incrementAndGet() + "%sim"));
    }

    /** Null when the message is acceptable, else {@code field:description}. */
    private static String checkMessage(JsonObject message) {
        int targets = (message.containsKey("token") ? 1 : 0) + (message.containsKey("topic") ? 1 : 0)
                + (message.containsKey("condition") ? 1 : 0);
        if (targets != 1 || !(message.getValue("token") instanceof String token) || token.isEmpty()) {
            return "message.token:Exactly one of token, topic or condition is required (this simulator: token)";
        }
        int size = 0;
        Object data = message.getValue("data");
        if (data != null) {
            if (!(data instanceof JsonObject d)) {
                return "message.data:Invalid value at 'message.data' (type.googleapis.com/google.protobuf.Struct)";
            }
            int i = 0;
            for (Map.Entry<String, Object> entry : d) {
                String key = entry.getKey();
                if (!(entry.getValue() instanceof String value)) {
                    return "message.data[" + i + "].value:Invalid value at 'message.data[" + i
                            + "].value' (TYPE_STRING)";
                }
                String lower = key.toLowerCase();
                if (RESERVED_DATA_KEYS.contains(lower) || lower.startsWith("google") || lower.startsWith("gcm")) {
                    return "message.data:Invalid data payload key: " + key;
                }
                size += key.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length;
                i++;
            }
        }
        Object notification = message.getValue("notification");
        if (notification != null) {
            if (!(notification instanceof JsonObject n)) {
                return "message.notification:Invalid value at 'message.notification'";
            }
            size += n.encode().getBytes(StandardCharsets.UTF_8).length;
        }
        Object android = message.getValue("android");
        if (android != null) {
            if (!(android instanceof JsonObject a)) {
                return "message.android:Invalid value at 'message.android'";
            }
            Object ttl = a.getValue("ttl");
            if (ttl != null && !(ttl instanceof String t && TTL.matcher(t).matches())) {
                return "message.android.ttl:Invalid value at 'message.android.ttl' (type.googleapis.com/"
                        + "google.protobuf.Duration)";
            }
            // AndroidConfig.collapse_key: a string (FCM v1 reference); the "four keys at a time" limit is per
            // device and not checked here
            Object collapseKey = a.getValue("collapse_key");
            if (collapseKey != null && !(collapseKey instanceof String)) {
                return "message.android.collapse_key:Invalid value at 'message.android.collapse_key' (TYPE_STRING)";
            }
            Object priority = a.getValue("priority");
            if (priority != null && !"NORMAL".equals(priority) && !"HIGH".equals(priority)) {
                return "message.android.priority:Invalid value at 'message.android.priority'";
            }
            Object androidNotification = a.getValue("notification");
            if (androidNotification != null) {
                if (!(androidNotification instanceof JsonObject an)) {
                    return "message.android.notification:Invalid value at 'message.android.notification'";
                }
                Object count = an.getValue("notification_count");
                if (count != null && !(count instanceof Integer || count instanceof Long)) {
                    return "message.android.notification.notification_count:Invalid value at "
                            + "'message.android.notification.notification_count' (TYPE_INT32)";
                }
                // AndroidNotification.tag: a string (FCM v1 reference)
                Object tag = an.getValue("tag");
                if (tag != null && !(tag instanceof String)) {
                    return "message.android.notification.tag:Invalid value at 'message.android.notification.tag' "
                            + "(TYPE_STRING)";
                }
                size += an.encode().getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (size > MAX_PAYLOAD) {
            return "message:Message is too big";
        }
        return null;
    }

    private void unauthenticated(RoutingContext ctx) {
        later(() -> ctx.response().setStatusCode(401)
                .putHeader("www-authenticate", "Bearer realm=\"https://accounts.google.com/\"")
                .putHeader("content-type", "application/json")
                .end(googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected "
                        + "OAuth 2 access token, login cookie or other valid authentication credential.", null)
                        .encode()));
    }

    private void badRequest(RoutingContext ctx, String field, String description) {
        JsonObject body = googleError(400, "INVALID_ARGUMENT", description, null);
        body.getJsonObject("error").getJsonArray("details").add(new JsonObject()
                .put("@type", "type.googleapis.com/google.rpc.BadRequest")
                .put("fieldViolations", new JsonArray().add(
                        new JsonObject().put("field", field).put("description", description))));
        reply(ctx, 400, body);
    }

    private void error(RoutingContext ctx, int status, String googleStatus, String message, String fcmErrorCode,
            String retryAfter) {
        JsonObject body = googleError(status, googleStatus, message, fcmErrorCode);
        later(() -> {
            if (retryAfter != null) {
                ctx.response().putHeader("retry-after", retryAfter);
            }
            json(ctx, status, body);
        });
    }

    private static JsonObject googleError(int code, String status, String message, String fcmErrorCode) {
        JsonArray details = new JsonArray();
        if (fcmErrorCode != null) {
            details.add(new JsonObject().put("@type", "type.googleapis.com/google.firebase.fcm.v1.FcmError")
                    .put("errorCode", fcmErrorCode));
        }
        return new JsonObject().put("error", new JsonObject().put("code", code).put("message", message)
                .put("status", status).put("details", details));
    }
}

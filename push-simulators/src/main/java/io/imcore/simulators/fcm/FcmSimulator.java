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
 * project; without registrations any well-formed assertion is accepted. docs/channels/fcm.md lists the checks.
 */
public class FcmSimulator extends ProviderSimulator {

    /** A token starting with this (it also starts with {@link Faults#INVALID_PREFIX}) gets 400 INVALID_ARGUMENT. */
    public static final String MALFORMED_PREFIX = "invalid-format";
    /** Access tokens this simulator issues are valid this long. */
    public static final long TOKEN_SECONDS = 3600;

    /**
     * The message name FCM answers a dry run ({@code validate_only}) with, in place of a message id:
     * {@code projects/<project>/messages/fake_message_id}.
     */
    public static final String DRY_RUN_MESSAGE_ID = "fake_message_id";
    /**
     * The audience every google-auth client signs its jwt-bearer grant for, whatever the service account's
     * {@code token_uri} says (google-auth-library-java {@code ServiceAccountCredentials.createAssertion}:
     * {@code OAuth2Utils.TOKEN_SERVER_URI}); Google's service-account guide: "always
     * https://oauth2.googleapis.com/token".
     */
    public static final String GOOGLE_TOKEN_AUDIENCE = "https://oauth2.googleapis.com/token";
    /** {@code WWW-Authenticate} of a 401: Google's realm (RFC 6750 section 3). */
    static final String REALM = "Bearer realm=\"https://accounts.google.com/\"";

    static final int MAX_PAYLOAD = 4096;
    /** AndroidConfig.ttl: "The maximum time to live supported is 4 weeks". */
    static final long MAX_TTL_SECONDS = 28L * 24 * 3600;
    /**
     * AndroidConfig.priority: the enum's names (AndroidMessagePriority NORMAL, HIGH), the lower-case values the
     * reference documents ("Can take "normal" and "high" values") and the Admin SDK writes, and the enum's numbers
     * (NORMAL = 0, HIGH = 1), which proto3 JSON parsers accept too.
     */
    private static final Set<Object> PRIORITIES = Set.of("NORMAL", "HIGH", "normal", "high", 0, 1);
    private static final String SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
    private static final String CLOUD_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    private static final Pattern TTL = Pattern.compile("\\d{1,12}(\\.\\d{1,9})?s");
    private static final Set<String> RESERVED_DATA_KEYS = Set.of("from", "notification", "message_type");

    private record Account(String projectId, PublicKey publicKey) {}

    private record AccessToken(String clientEmail, long expiresAtMillis) {}

    /**
     * A refused field. {@code fcmError}: a check of FCM's own (ErrorCode INVALID_ARGUMENT: invalid registration,
     * message too big, invalid data key, invalid TTL), answered with the FcmError detail beside google.rpc.BadRequest;
     * otherwise a JSON value of the wrong type or format, answered with google.rpc.BadRequest alone.
     */
    private record Violation(String field, String description, boolean fcmError) {

        static Violation json(String field, String description) {
            return new Violation(field, description, false);
        }

        static Violation fcm(String field, String description) {
            return new Violation(field, description, true);
        }
    }

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
        if (!acceptedAudience(aud, tokenPath)) {
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

    /**
     * Google's own token URI (what google-auth always signs), or a URL of this endpoint (clients that sign their
     * {@code token_uri}, such as golang.org/x/oauth2/jwt): its path must be this endpoint's, whatever the host.
     */
    static boolean acceptedAudience(String aud, String tokenPath) {
        if (GOOGLE_TOKEN_AUDIENCE.equals(aud)) {
            return true;
        }
        try {
            URI uri = new URI(aud);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                    && tokenPath.equals(uri.getPath());
        } catch (java.net.URISyntaxException e) {
            return false;
        }
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
            unauthenticated(ctx, accessToken != null);
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
            unauthenticated(ctx, accessToken != null);
            return;
        }
        Account account = accounts.get(known.clientEmail());
        if (account != null && !account.projectId().equals(project)) {
            error(ctx, 403, "PERMISSION_DENIED",
                    "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager"
                            + ".googleapis.com/projects/" + project + "' (or it may not exist).", null, null);
            return;
        }
        JsonObject request;
        JsonObject message;
        try {
            request = ctx.body().asJsonObject();
            message = request.getJsonObject("message");
        } catch (RuntimeException e) {
            request = null;
            message = null;
        }
        if (message == null) {
            badRequest(ctx, Violation.json("message", "Invalid JSON payload received."));
            return;
        }
        // SendMessageRequest.validate_only ("Flag for testing the request without actually delivering the
        // message"); proto3 JSON parsers take the field's JSON name (validateOnly) as well
        Object validateOnly = request.containsKey("validate_only") ? request.getValue("validate_only")
                : request.getValue("validateOnly");
        if (validateOnly != null && !(validateOnly instanceof Boolean)) {
            badRequest(ctx, Violation.json("validate_only", "Invalid value at 'validate_only' (TYPE_BOOL), "
                    + validateOnly));
            return;
        }
        boolean dryRun = Boolean.TRUE.equals(validateOnly);
        Violation invalid = checkMessage(message);
        if (invalid != null) {
            badRequest(ctx, invalid);
            return;
        }
        String token = message.getString("token");
        if (token.startsWith(MALFORMED_PREFIX)) {
            badRequest(ctx, Violation.fcm("message.token",
                    "The registration token is not a valid FCM registration token"));
            return;
        }
        if (Faults.isInvalid(token)) {
            error(ctx, 404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED", null);
            return;
        }
        if (dryRun) {
            // validated, token included, and delivered to nobody: not counted, not noted as received
            reply(ctx, 200, new JsonObject().put("name",
                    "projects/" + project + "/messages/" + DRY_RUN_MESSAGE_ID));
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

    /** Null when the message is acceptable, else the first refused field. */
    private static Violation checkMessage(JsonObject message) {
        int targets = (message.containsKey("token") ? 1 : 0) + (message.containsKey("topic") ? 1 : 0)
                + (message.containsKey("condition") ? 1 : 0);
        if (targets != 1 || !(message.getValue("token") instanceof String token) || token.isEmpty()) {
            return Violation.json("message.token",
                    "Exactly one of token, topic or condition is required (this simulator: token)");
        }
        int size = 0;
        Object data = message.getValue("data");
        if (data != null) {
            if (!(data instanceof JsonObject d)) {
                return Violation.json("message.data",
                        "Invalid value at 'message.data' (type.googleapis.com/google.protobuf.Struct)");
            }
            int i = 0;
            for (Map.Entry<String, Object> entry : d) {
                String key = entry.getKey();
                if (!(entry.getValue() instanceof String value)) {
                    return Violation.json("message.data[" + i + "].value", "Invalid value at 'message.data[" + i
                            + "].value' (TYPE_STRING), " + entry.getValue());
                }
                String lower = key.toLowerCase();
                if (RESERVED_DATA_KEYS.contains(lower) || lower.startsWith("google") || lower.startsWith("gcm")) {
                    return Violation.fcm("message.data", "Invalid data payload key: " + key);
                }
                size += key.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length;
                i++;
            }
        }
        Object notification = message.getValue("notification");
        if (notification != null) {
            if (!(notification instanceof JsonObject n)) {
                return Violation.json("message.notification", "Invalid value at 'message.notification'");
            }
            size += n.encode().getBytes(StandardCharsets.UTF_8).length;
        }
        Object android = message.getValue("android");
        if (android != null) {
            if (!(android instanceof JsonObject a)) {
                return Violation.json("message.android", "Invalid value at 'message.android'");
            }
            Object ttl = a.getValue("ttl");
            if (ttl != null && !(ttl instanceof String t && TTL.matcher(t).matches())) {
                return Violation.json("message.android.ttl", "Invalid value at 'message.android.ttl' "
                        + "(type.googleapis.com/google.protobuf.Duration), " + ttl);
            }
            if (ttl != null && Long.parseLong(((String) ttl).replaceAll("[.s].*", "")) > MAX_TTL_SECONDS) {
                return Violation.fcm("message.android.ttl",
                        "The maximum time to live is 4 weeks (" + MAX_TTL_SECONDS + "s): " + ttl);
            }
            // AndroidConfig.collapse_key: a string (FCM v1 reference); the "four keys at a time" limit is per
            // device and not checked here
            Object collapseKey = a.getValue("collapse_key");
            if (collapseKey != null && !(collapseKey instanceof String)) {
                return Violation.json("message.android.collapse_key",
                        "Invalid value at 'message.android.collapse_key' (TYPE_STRING), " + collapseKey);
            }
            Object priority = a.getValue("priority");
            if (priority != null && !PRIORITIES.contains(priority instanceof Long l && l >= 0 && l <= 1
                    ? Integer.valueOf(l.intValue()) : priority)) {
                return Violation.json("message.android.priority", "Invalid value at 'message.android.priority' "
                        + "(type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), " + priority);
            }
            Object androidNotification = a.getValue("notification");
            if (androidNotification != null) {
                if (!(androidNotification instanceof JsonObject an)) {
                    return Violation.json("message.android.notification",
                            "Invalid value at 'message.android.notification'");
                }
                Object count = an.getValue("notification_count");
                if (count != null && !(count instanceof Integer || count instanceof Long)) {
                    return Violation.json("message.android.notification.notification_count", "Invalid value at "
                            + "'message.android.notification.notification_count' (TYPE_INT32), " + count);
                }
                // AndroidNotification.tag: a string (FCM v1 reference)
                Object tag = an.getValue("tag");
                if (tag != null && !(tag instanceof String)) {
                    return Violation.json("message.android.notification.tag",
                            "Invalid value at 'message.android.notification.tag' (TYPE_STRING), " + tag);
                }
                size += an.encode().getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (size > MAX_PAYLOAD) {
            return Violation.fcm("message", "Message is too big");
        }
        return null;
    }

    /**
     * 401 UNAUTHENTICATED. RFC 6750 section 3.1: a presented token that is expired, revoked or unknown gets
     * {@code error="invalid_token"} (google-auth's HttpCredentialsAdapter refreshes its access token and repeats the
     * request only then, when the challenge is Bearer); a request without any credentials gets no error code.
     */
    private void unauthenticated(RoutingContext ctx, boolean tokenPresented) {
        String challenge = tokenPresented ? REALM + ", error=\"invalid_token\"" : REALM;
        later(() -> ctx.response().setStatusCode(401)
                .putHeader("www-authenticate", challenge)
                .putHeader("content-type", "application/json")
                .end(googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected "
                        + "OAuth 2 access token, login cookie or other valid authentication credential.", null)
                        .encode()));
    }

    /**
     * 400 INVALID_ARGUMENT naming the field in a google.rpc.BadRequest detail, after the FcmError detail (errorCode
     * INVALID_ARGUMENT) when the check is FCM's own (docs/channels/fcm.md).
     */
    private void badRequest(RoutingContext ctx, Violation violation) {
        JsonObject body = googleError(400, "INVALID_ARGUMENT", violation.description(),
                violation.fcmError() ? "INVALID_ARGUMENT" : null);
        body.getJsonObject("error").getJsonArray("details").add(new JsonObject()
                .put("@type", "type.googleapis.com/google.rpc.BadRequest")
                .put("fieldViolations", new JsonArray().add(new JsonObject().put("field", violation.field())
                        .put("description", violation.description()))));
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

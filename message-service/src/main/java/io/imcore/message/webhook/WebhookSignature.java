package io.imcore.message.webhook;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Secrets and signatures as the Standard Webhooks specification defines them (https://www.standardwebhooks.com,
 * "Signature scheme"), so that its published verifier libraries accept our requests: the secret is {@code whsec_}
 * and the base64 of random bytes; the signature of a request is {@code v1,} and the base64 of the HMAC-SHA256,
 * keyed with the secret's decoded bytes, of {@code webhook-id + "." + webhook-timestamp + "." + body}.
 */
public final class WebhookSignature {

    public static final String ID_HEADER = "webhook-id";
    public static final String TIMESTAMP_HEADER = "webhook-timestamp";
    public static final String SIGNATURE_HEADER = "webhook-signature";
    static final String SECRET_PREFIX = "whsec_";
    /** The specification asks for 24 to 64 bytes. */
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSignature() {
    }

    public static String newSecret() {
        byte[] key = new byte[SECRET_BYTES];
        RANDOM.nextBytes(key);
        return SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /** The secret with all but its prefix and last four characters hidden, for reading it back. */
    static String masked(String secret) {
        return SECRET_PREFIX + "****" + secret.substring(secret.length() - 4);
    }

    /** The {@value #SIGNATURE_HEADER} value of a request; {@code timestampSeconds} is its {@value #TIMESTAMP_HEADER}. */
    public static String sign(String secret, String id, long timestampSeconds, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length())),
                    "HmacSHA256"));
            byte[] digest = mac.doFinal((id + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** A POST of {@code body} to {@code url}, signed with {@code secret} as of now, with the request's deadline. */
    public static HttpRequest signedPost(String url, String secret, String id, String body, Duration timeout) {
        long timestamp = System.currentTimeMillis() / 1000;
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header(ID_HEADER, id)
                .header(TIMESTAMP_HEADER, Long.toString(timestamp))
                .header(SIGNATURE_HEADER, sign(secret, id, timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
    }
}

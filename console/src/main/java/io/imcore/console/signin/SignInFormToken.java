package io.imcore.console.signin;

import io.imcore.console.page.SessionGuard;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.NewCookie;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The sign-in form's CSRF token, kept by the browser instead of the server (OWASP "signed double-submit cookie"), so
 * showing the sign-in page stores nothing. A token is its issue time and a random nonce, signed with HMAC-SHA256
 * under {@code im.console.sign-in.form-secret} (32 random bytes drawn at start when none is configured); it goes in
 * an HttpOnly cookie and in the form's hidden field. A sign-in passes only when both arrive, are equal, the signature
 * verifies and the token is at most {@code im.console.sign-in.form-lifetime} old.
 */
@Startup
@ApplicationScoped
public class SignInFormToken {

    static final String COOKIE = "console_sign_in";
    /** Sent back only to the sign-in page, which is the only reader. */
    private static final String COOKIE_PATH = SessionGuard.PATH + "/sign-in";
    private static final String MAC = "HmacSHA256";
    private static final int MIN_SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    Clock clock = Clock.systemUTC();
    private SecretKeySpec key;

    @ConfigProperty(name = "im.console.sign-in.form-secret")
    Optional<String> configuredSecret;
    @ConfigProperty(name = "im.console.sign-in.form-lifetime")
    Duration lifetime;
    @ConfigProperty(name = "im.console.session.secure-cookie")
    boolean secureCookie;

    @PostConstruct
    void loadKey() {
        byte[] secret;
        if (configuredSecret.isPresent()) {
            secret = configuredSecret.get().getBytes(StandardCharsets.UTF_8);
            if (secret.length < MIN_SECRET_BYTES) {
                throw new IllegalStateException("im.console.sign-in.form-secret must be at least " + MIN_SECRET_BYTES
                        + " bytes (it is " + secret.length + "); leave it empty to draw one at start");
            }
        } else {
            secret = new byte[MIN_SECRET_BYTES];
            RANDOM.nextBytes(secret);
        }
        key = new SecretKeySpec(secret, MAC);
    }

    /** A new token: {@code <issued epoch second>.<nonce>.<signature>}. */
    public String issue() {
        byte[] nonce = new byte[32];
        RANDOM.nextBytes(nonce);
        String signed = clock.instant().getEpochSecond() + "." + base64(nonce);
        return signed + "." + base64(sign(signed));
    }

    /** True when the cookie and the form field carry the same token, signed by this key and not yet expired. */
    public boolean accepts(String cookie, String field) {
        if (cookie == null || field == null || !MessageDigest.isEqual(cookie.getBytes(StandardCharsets.UTF_8),
                field.getBytes(StandardCharsets.UTF_8))) {
            return false;
        }
        int lastDot = cookie.lastIndexOf('.');
        int firstDot = cookie.indexOf('.');
        if (firstDot <= 0 || lastDot == firstDot) {
            return false;
        }
        String signed = cookie.substring(0, lastDot);
        byte[] signature;
        long issuedSecond;
        try {
            signature = Base64.getUrlDecoder().decode(cookie.substring(lastDot + 1));
            issuedSecond = Long.parseLong(cookie.substring(0, firstDot));
        } catch (IllegalArgumentException malformed) { // NumberFormatException included
            return false;
        }
        if (!MessageDigest.isEqual(sign(signed), signature)) {
            return false;
        }
        Instant issued = Instant.ofEpochSecond(issuedSecond);
        Instant now = clock.instant();
        return !issued.isAfter(now) && !now.isAfter(issued.plus(lifetime));
    }

    public NewCookie cookie(String token) {
        return new NewCookie.Builder(COOKIE).value(token).path(COOKIE_PATH).httpOnly(true).secure(secureCookie)
                .sameSite(NewCookie.SameSite.STRICT).maxAge((int) lifetime.toSeconds()).build();
    }

    /** Clears the cookie once it has served (a successful sign-in). */
    public NewCookie expiredCookie() {
        return new NewCookie.Builder(COOKIE).value("").path(COOKIE_PATH).httpOnly(true).secure(secureCookie)
                .sameSite(NewCookie.SameSite.STRICT).maxAge(0).build();
    }

    private byte[] sign(String text) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(key);
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static String base64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}

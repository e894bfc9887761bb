package io.imcore.console.signin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SignInFormTokenTest {

    private static final Instant START = Instant.parse("2026-12-06T00:00:00Z");

    private final SignInFormToken tokens = tokens(Optional.empty());

    @Test
    void theTokenOfTheCookieAndOfTheFormIsAccepted() {
        String token = tokens.issue();
        assertTrue(tokens.accepts(token, token));
        assertNotEquals(token, tokens.issue(), "each form gets its own");
    }

    @Test
    void aMissingHalfIsRefused() {
        String token = tokens.issue();
        assertFalse(tokens.accepts(null, token), "no cookie");
        assertFalse(tokens.accepts(token, null), "no form field");
        assertFalse(tokens.accepts(null, null));
        assertFalse(tokens.accepts("", ""));
    }

    @Test
    void twoValidTokensThatDifferAreRefused() {
        assertFalse(tokens.accepts(tokens.issue(), tokens.issue()));
    }

    @Test
    void aForgedOrMalformedTokenIsRefusedEvenWhenBothHalvesMatch() {
        String token = tokens.issue();
        String[] parts = token.split("\\.");
        String later = (Long.parseLong(parts[0]) + 3600) + "." + parts[1] + "." + parts[2];
        String otherSignature = parts[0] + "." + parts[1] + "." + "A".repeat(parts[2].length());
        String otherKey = tokens(Optional.empty()).issue();
        for (String forged : new String[] {later, otherSignature, otherKey, "1.2", "x.y.z", "..", parts[2]}) {
            assertFalse(tokens.accepts(forged, forged), forged);
        }
    }

    @Test
    void aTokenExpiresAfterItsLifetime() {
        String token = tokens.issue();
        tokens.clock = Clock.fixed(START.plus(Duration.ofHours(1)), ZoneOffset.UTC);
        assertTrue(tokens.accepts(token, token), "at its lifetime");
        tokens.clock = Clock.fixed(START.plus(Duration.ofHours(1)).plusSeconds(1), ZoneOffset.UTC);
        assertFalse(tokens.accepts(token, token), "past it");
    }

    @Test
    void aConfiguredSecretSignsAlikeAcrossRestartsAndMustBeLongEnough() {
        String secret = "0123456789abcdef0123456789abcdef";
        String token = tokens(Optional.of(secret)).issue();
        assertTrue(tokens(Optional.of(secret)).accepts(token, token), "another start with the same secret");
        IllegalStateException shortSecret = assertThrows(IllegalStateException.class,
                () -> tokens(Optional.of("short")));
        assertEquals("im.console.sign-in.form-secret must be at least 32 bytes (it is 5); leave it empty to draw one"
                + " at start", shortSecret.getMessage());
    }

    private static SignInFormToken tokens(Optional<String> secret) {
        SignInFormToken tokens = new SignInFormToken();
        tokens.configuredSecret = secret;
        tokens.lifetime = Duration.ofHours(1);
        tokens.clock = Clock.fixed(START, ZoneOffset.UTC);
        tokens.loadKey();
        return tokens;
    }
}

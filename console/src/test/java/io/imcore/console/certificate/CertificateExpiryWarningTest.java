package io.imcore.console.certificate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CertificateExpiryWarningTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

    @Test
    void warnsFrom30DaysAheadAndSaysExpiredAfter() {
        assertEquals("", CertificatePages.expiryWarning(NOW.plus(Duration.ofDays(30)).plusSeconds(1), NOW));
        assertEquals("expires in 30 days", CertificatePages.expiryWarning(NOW.plus(Duration.ofDays(30)), NOW));
        assertEquals("expires in 1 day", CertificatePages.expiryWarning(NOW.plus(Duration.ofHours(47)), NOW));
        assertEquals("expires today", CertificatePages.expiryWarning(NOW.plusSeconds(60), NOW));
        assertEquals("expired", CertificatePages.expiryWarning(NOW, NOW));
        assertEquals("expired", CertificatePages.expiryWarning(NOW.minus(Duration.ofDays(400)), NOW));
    }
}

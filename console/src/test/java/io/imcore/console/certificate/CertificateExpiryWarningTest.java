package io.imcore.console.certificate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.console.page.ConsoleMessages;
import io.imcore.console.page.EnglishMessages;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CertificateExpiryWarningTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");
    private static final ConsoleMessages MSG = EnglishMessages.get();

    @Test
    void warnsFrom30DaysAheadAndSaysExpiredAfter() {
        assertEquals("", CertificatePages.expiryWarning(NOW.plus(Duration.ofDays(30)).plusSeconds(1), NOW, MSG));
        assertEquals("expires in 30 days", CertificatePages.expiryWarning(NOW.plus(Duration.ofDays(30)), NOW, MSG));
        assertEquals("expires in 1 day", CertificatePages.expiryWarning(NOW.plus(Duration.ofHours(47)), NOW, MSG));
        assertEquals("expires today", CertificatePages.expiryWarning(NOW.plusSeconds(60), NOW, MSG));
        assertEquals("expired", CertificatePages.expiryWarning(NOW, NOW, MSG));
        assertEquals("expired", CertificatePages.expiryWarning(NOW.minus(Duration.ofDays(400)), NOW, MSG));
    }
}

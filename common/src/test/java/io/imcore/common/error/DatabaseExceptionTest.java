package io.imcore.common.error;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class DatabaseExceptionTest {

    @Test
    void connectionFailuresArePresentedAsUnavailable() {
        assertTrue(new DatabaseException(new SQLException("connection attempt failed", "08001")).isUnavailable());
        assertTrue(new DatabaseException(new SQLException("terminating connection due to administrator command", "57P01"))
                .isUnavailable());
        assertTrue(new DatabaseException(new SQLException("Acquisition timeout while waiting for new connection"))
                .isUnavailable());
    }

    @Test
    void queryErrorsAreNotUnavailability() {
        DatabaseException duplicate = new DatabaseException(new SQLException("duplicate key value", "23505"));
        assertFalse(duplicate.isUnavailable());
        assertTrue(Database.isUniqueViolation(duplicate));
        assertFalse(new DatabaseException(new SQLException("syntax error", "42601")).isUnavailable());
        assertFalse(Database.isUniqueViolation(new DatabaseException(new SQLException("syntax error", "42601"))));
    }

    @Test
    void textTheDatabaseCannotStoreIsTheInputsFault() {
        assertTrue(new DatabaseException(new SQLException("invalid byte sequence for encoding \"UTF8\": 0x00", "22021"))
                .isUnstorableText());
        assertTrue(new DatabaseException(new SQLException("unsupported Unicode escape sequence", "22P05"))
                .isUnstorableText());
        assertFalse(new DatabaseException(new SQLException("duplicate key value", "23505")).isUnstorableText());
    }
}

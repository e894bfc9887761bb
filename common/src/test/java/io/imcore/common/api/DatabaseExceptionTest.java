package io.imcore.common.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class DatabaseExceptionTest {

    @Test
    void connectionFailuresArePresentedAsUnavailable() {
        assertTrue(DatabaseException.isUnavailable(new SQLException("connection attempt failed", "08001")));
        assertTrue(DatabaseException.isUnavailable(
                new SQLException("An I/O error occurred while sending to the backend.", "08006")));
        assertTrue(DatabaseException.isUnavailable(
                new SQLException("terminating connection due to administrator command", "57P01")));
        assertTrue(DatabaseException.isUnavailable(
                new SQLException("the database system is starting up", "57P03")));
        assertTrue(DatabaseException.isUnavailable(
                new SQLException("canceling statement due to statement timeout", "57014")));
        assertTrue(DatabaseException.isUnavailable(
                new SQLTransientConnectionException("Sorry, acquisition timeout!")));
    }

    @Test
    void anUnavailableDatabaseIsFoundUnderAnyWrapper() {
        SQLException frozen = new SQLException("An I/O error occurred while sending to the backend.", "08006");
        RuntimeException wrapped = new RuntimeException("JDBC exception", new DatabaseException(frozen));
        assertSame(frozen, DatabaseException.unavailableCause(wrapped));
        assertNull(DatabaseException.unavailableCause(
                new RuntimeException(new SQLException("duplicate key value", "23505"))));
    }

    @Test
    void queryErrorsAreNotUnavailability() {
        DatabaseException duplicate = new DatabaseException(new SQLException("duplicate key value", "23505"));
        assertFalse(DatabaseException.isUnavailable((SQLException) duplicate.getCause()));
        assertTrue(Database.isUniqueViolation(duplicate));
        assertFalse(DatabaseException.isUnavailable(new SQLException("syntax error", "42601")));
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

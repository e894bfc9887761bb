package io.imcore.common.store;

import io.agroal.api.AgroalDataSource;
import io.imcore.common.concurrent.NonBlockingAttempt;
import io.imcore.common.error.DatabaseException;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Plain JDBC with explicit transactions: each use case says what runs in one transaction, and an SQL
 * failure leaves as a {@link DatabaseException} after rollback. Every use blocks its thread, so none runs in a
 * {@link NonBlockingAttempt}.
 */
@ApplicationScoped
public class Database {

    private static final String UNIQUE_VIOLATION = "23505";

    private final AgroalDataSource dataSource;

    public Database(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs the work in one transaction: commit when it returns, rollback when it throws. */
    public <T> T inTransaction(Work<T> work) {
        NonBlockingAttempt.refuseBlocking();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException(e);
        }
    }

    /** Runs read-only work with auto-commit. */
    public <T> T read(Work<T> work) {
        return autoCommit(work);
    }

    /** Runs the work with auto-commit: each statement is a transaction of its own (one round trip, no COMMIT). */
    public <T> T autoCommit(Work<T> work) {
        NonBlockingAttempt.refuseBlocking();
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new DatabaseException(e);
        }
    }

    /** A {@code bigint[]} parameter (for {@code = any(?)} and {@code unnest(?)}). */
    public static Array bigints(Connection connection, long[] values) throws SQLException {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return connection.createArrayOf("bigint", boxed);
    }

    public static boolean isUniqueViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}

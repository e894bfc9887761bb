package io.imcore.common.store;

import io.agroal.api.AgroalDataSource;
import io.imcore.common.api.DatabaseException;
import io.imcore.common.concurrent.NonBlockingAttempt;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Plain SQL beside Quarkus's transaction API (JTA: {@code QuarkusTransaction}, {@code @Transactional}), which draws
 * the transaction boundaries of use cases. Inside such a transaction the hot statements that docs/architecture.md
 * keeps out of Hibernate run on the transaction's own connection, the one Hibernate's session uses, so an entity
 * change and a plain statement commit together; outside one they run in a local transaction of their own. An SQL
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

    /**
     * Runs the work in the caller's transaction when one is active (on its enlisted connection), else in a local
     * transaction of its own on a connection of its own: commit when the work returns, rollback when it throws. The
     * local one skips the transaction manager, which costs the hot paths (group commits of sends, push-worker's
     * batches, the expansion) a fifth of their rate (docs/benchmarks.md "Before and after the one-shape redesign").
     */
    public <T> T inTransaction(Work<T> work) {
        NonBlockingAttempt.refuseBlocking();
        if (QuarkusTransaction.isActive()) {
            return onConnection(connection -> {
                if (connection.getAutoCommit()) {
                    // each statement would commit alone: the datasource must take part in JTA transactions
                    throw new IllegalStateException("the datasource is not enlisted in the transaction "
                            + "(quarkus.datasource.jdbc.transactions must stay enabled)");
                }
                return work.run(connection);
            });
        }
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

    /** Runs read-only work: outside a transaction, with auto-commit. */
    public <T> T read(Work<T> work) {
        return autoCommit(work);
    }

    /**
     * Runs the work on a connection of its own with auto-commit (each statement is its own transaction: one round
     * trip, no COMMIT), or in the caller's transaction if there is one.
     */
    public <T> T autoCommit(Work<T> work) {
        NonBlockingAttempt.refuseBlocking();
        return onConnection(work);
    }

    private <T> T onConnection(Work<T> work) {
        // inside a transaction the pool hands out the connection enlisted in it; closing only returns the handle
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

package io.imcore.common.api;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/** An SQL failure that the use case did not handle; mapped to 50003 when the database is unreachable. */
public class DatabaseException extends RuntimeException {

    public DatabaseException(SQLException cause) {
        super(cause.getMessage(), cause);
    }

    /** Text the database cannot store (U+0000, or bytes invalid in its encoding): the input's fault, not ours. */
    public boolean isUnstorableText() {
        String state = ((SQLException) getCause()).getSQLState();
        return "22021".equals(state) || "22P05".equals(state);
    }

    /**
     * The database is unreachable, frozen or too slow, not the statement wrong: worth a 50003 ("safe to retry").
     * SQL states (PostgreSQL appendix A): class 08 = connection exception (pgjdbc also reports its socketTimeout as
     * 08006), 57P01/57P02/57P03 = the server shutting down or not yet accepting connections, 57014 = query_canceled,
     * which only our statement_timeout issues. Agroal reports an empty pool after its acquisition timeout as
     * SQLTransientConnectionException, without a state.
     */
    public static boolean isUnavailable(SQLException sql) {
        String state = sql.getSQLState();
        String text = String.valueOf(sql.getMessage()).toLowerCase();
        return sql instanceof SQLTransientConnectionException
                || (state != null && (state.startsWith("08") || state.startsWith("57P0") || "57014".equals(state)))
                || text.contains("acquisition timeout") || text.contains("connection refused");
    }

    /** The first SQL failure that says the database is unavailable, anywhere in the cause chain (JPA wraps it). */
    public static SQLException unavailableCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && isUnavailable(sql)) {
                return sql;
            }
        }
        return null;
    }
}

package io.imcore.common.error;

import java.sql.SQLException;

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

    public boolean isUnavailable() {
        SQLException sql = (SQLException) getCause();
        String state = sql.getSQLState();
        String text = String.valueOf(sql.getMessage()).toLowerCase();
        // class 08 = connection exception, 57P0x = server shutting down; Agroal reports pool starvation without a state
        return (state != null && (state.startsWith("08") || state.startsWith("57P0")))
                || text.contains("acquisition timeout") || text.contains("connection refused");
    }
}

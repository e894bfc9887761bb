package io.imcore.common.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Deletes the rows matching a condition a chunk at a time, each chunk one statement. The background purges use it
 * so that a backlog of millions of rows is cleared in statements that each stay far below the services' 6 s
 * {@code statement_timeout} (docs/operations.md "Database time bounds") instead of one statement that is cut and
 * never gets through. Run it with auto-commit: each chunk then commits on its own and holds its row locks briefly.
 */
public final class ChunkedDelete {

    /** Rows per statement of the services' purges: a few milliseconds of work on an indexed condition. */
    public static final int CHUNK = 5_000;

    @FunctionalInterface
    public interface Parameters {
        /** Binds the condition's parameters starting at {@code first}. */
        void bind(PreparedStatement statement, int first) throws SQLException;
    }

    private ChunkedDelete() {
    }

    /**
     * Deletes every row of {@code table} for which {@code condition} holds, {@code chunk} rows per statement, until a
     * statement deletes fewer; returns how many rows it deleted. The condition is checked again on delete, so a row
     * changed since it was picked (a throttle bucket taken again) is kept.
     */
    public static long delete(Connection c, String table, String condition, int parameterCount, Parameters parameters,
            int chunk) throws SQLException {
        String sql = "delete from " + table + " where ctid = any(array(select ctid from " + table + " where "
                + condition + " limit ?)) and " + condition;
        long deleted = 0;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            parameters.bind(ps, 1);
            ps.setInt(parameterCount + 1, chunk);
            parameters.bind(ps, parameterCount + 2);
            int last;
            do {
                last = ps.executeUpdate();
                deleted += last;
            } while (last == chunk);
        }
        return deleted;
    }
}

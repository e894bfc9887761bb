package io.imcore.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rows a statement reads, from its {@code EXPLAIN (ANALYZE, FORMAT JSON)} under the generic plan (what a
 * server-prepared statement settles on after its first executions): the plan checks of issue 48 assert that a
 * statement's cost does not grow with the tables.
 */
public final class PlanReads {

    /** Binds a statement's parameters. */
    @FunctionalInterface
    public interface Parameters {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private PlanReads() {}

    /** The plan PostgreSQL would choose for {@code sql} with these parameters ({@code EXPLAIN}, not run). */
    public static JsonNode plan(Connection c, String sql, Parameters parameters) throws SQLException {
        return explain(c, "explain (format json) ", sql, parameters);
    }

    /**
     * Runs {@code sql} under EXPLAIN ANALYZE with the generic plan in the caller's transaction, which the caller rolls
     * back (the statement ran); answers its plan.
     */
    public static JsonNode analyzeGeneric(Connection c, String sql, Parameters parameters) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("set local plan_cache_mode = force_generic_plan");
        }
        return explain(c, "explain (analyze, format json) ", sql, parameters);
    }

    private static JsonNode explain(Connection c, String explain, String sql, Parameters parameters)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(explain + sql)) {
            parameters.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return JSON.readTree(rs.getString(1));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The tables the plan reads with a sequential scan, in plan order (a table read in full). */
    public static List<String> seqScans(JsonNode node) {
        List<String> found = new ArrayList<>();
        collectSeqScans(node, found);
        return found;
    }

    private static void collectSeqScans(JsonNode node, List<String> found) {
        if (node.isObject() && "Seq Scan".equals(node.path("Node Type").asText())) {
            found.add(node.path("Relation Name").asText());
        }
        node.forEach(child -> collectSeqScans(child, found));
    }

    /** The rows the plan's scans of these tables returned or filtered out, over all their loops, join filters too. */
    public static long rowsRead(JsonNode node, Set<String> tables) {
        long read = 0;
        if (node.isObject() && tables.contains(node.path("Relation Name").asText())) {
            long loops = Math.max(1, node.path("Actual Loops").asLong());
            read += loops * (node.path("Actual Rows").asLong() + node.path("Rows Removed by Filter").asLong());
        }
        if (node.isObject() && node.has("Rows Removed by Join Filter")) {
            read += Math.max(1, node.path("Actual Loops").asLong()) * node.path("Rows Removed by Join Filter").asLong();
        }
        for (JsonNode child : node) {
            read += rowsRead(child, tables);
        }
        return read;
    }
}

package io.imcore.message;

import io.imcore.common.context.AuthViewStore;
import io.imcore.common.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test helper for GroupTest, BadInputTest and DedupTest: many users in one transaction (for big groups), and
 * direct SQL counts that tell what was (not) stored for one test's app.
 */
public final class MessageChecks {

    /** A range of its own, far from MessageApi's (which stays near 10^4 .. 10^9), and below the group ids (10^12). */
    private static final AtomicLong NEXT_USER = new AtomicLong(
            200_000_000_000L + ThreadLocalRandom.current().nextLong(100_000_000_000L));

    private MessageChecks() {
    }

    /** n users of the app, written into the auth view in one transaction (like MessageApi.newUser). */
    public static List<Long> users(Database database, MessageApi api, int n) {
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(NEXT_USER.incrementAndGet());
        }
        database.inTransaction(c -> {
            for (long id : ids) {
                AuthViewStore.upsertUser(c, api.appId, id, 1, false);
            }
            return null;
        });
        return ids;
    }

    /** Every stored message of the app (all conversations). */
    public static long messagesOfApp(Database database, MessageApi api) {
        return count(database, "select count(*) from messages m join conversations c on c.id = m.conversation_id"
                + " where c.app_id = ?", api.appId);
    }

    /** The rows of a group's conversation in {@code messages}. */
    public static long messagesOfGroup(Database database, MessageApi api, long groupId) {
        return count(database, "select count(*) from messages m join groups g on g.conversation_id = m.conversation_id"
                + " where g.app_id = ? and g.group_id = ?", api.appId, groupId);
    }

    /** Messages of the app whose content is exactly this text. */
    public static long messagesWithContent(Database database, MessageApi api, String content) {
        return count(database, "select count(*) from messages m join conversations c on c.id = m.conversation_id"
                + " where c.app_id = ? and m.content = ?", api.appId, content);
    }

    /** Groups of the app, destroyed ones included. */
    public static long groupsOfApp(Database database, MessageApi api) {
        return count(database, "select count(*) from groups where app_id = ?", api.appId);
    }

    /** Member rows of a group's conversation. */
    public static long membersOfGroup(Database database, MessageApi api, long groupId) {
        return count(database, "select count(*) from conversation_members m join groups g"
                + " on g.conversation_id = m.conversation_id where g.app_id = ? and g.group_id = ?",
                api.appId, groupId);
    }

    /** Member rows of every conversation of the app. */
    public static long membershipsOfApp(Database database, MessageApi api) {
        return count(database, "select count(*) from conversation_members where app_id = ?", api.appId);
    }

    public static long count(Database database, String sql, Object... args) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) {
                    ps.setObject(i + 1, args[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    public static List<Long> longs(List<? extends Number> numbers) {
        List<Long> out = new ArrayList<>(numbers.size());
        for (Number n : numbers) {
            out.add(n == null ? null : n.longValue());
        }
        return out;
    }

    public static long asLong(Object number) {
        return ((Number) number).longValue();
    }
}

package io.imcore.message.offlinepush;

import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.conversation.PlacedMessage;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Marks stored messages for offline push, in the send's own transaction (one statement per transaction), so a
 * message that commits is always announced to push-service and one that rolls back never is.
 */
@ApplicationScoped
public class OfflinePushQueue {

    private final boolean enabled;

    public OfflinePushQueue(MessageConfig config) {
        this.enabled = config.offlinePush().enabled();
    }

    public void enqueue(Connection c, String appId, List<PlacedMessage> placed) throws SQLException {
        if (!enabled || placed.isEmpty()) {
            return;
        }
        long[] conversations = new long[placed.size()];
        long[] msgIds = new long[placed.size()];
        for (int i = 0; i < placed.size(); i++) {
            conversations[i] = placed.get(i).conversationId();
            msgIds[i] = placed.get(i).msgId();
        }
        try (PreparedStatement ps = c.prepareStatement("insert into offline_push_queue (app_id, conversation_id, msg_id)"
                + " select ?, t.conversation_id, t.msg_id from unnest(?::bigint[], ?::bigint[]) as t(conversation_id, msg_id)")) {
            ps.setString(1, appId);
            ps.setArray(2, Database.bigints(c, conversations));
            ps.setArray(3, Database.bigints(c, msgIds));
            ps.executeUpdate();
        }
    }
}

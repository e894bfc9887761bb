package io.imcore.message.offlinepush;

import io.imcore.common.store.AdvisoryLocks;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.conversation.PlacedMessage;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Marks stored messages for offline push, in the send's own transaction (one statement per transaction), so a
 * message that commits is always announced to push-service and one that rolls back never is.
 */
@ApplicationScoped
public class OfflinePushQueue {

    /** The stage of a row that announces the recall of a message announced before (docs/offline-push.md "Recall"). */
    static final int RECALL_STAGE = 2;

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

    /**
     * The message was recalled: called in the recalling transaction, under the publisher's lock, so no pass is
     * announcing it meanwhile. A message not announced yet never will be (nothing was shown, nothing counted); a
     * message announced already gets a row announcing its recall (push-service replaces the notification through the
     * conversation's collapse key) and leaves the badge counts of the recipients who had not read it.
     */
    public void recall(Connection c, String appId, long conversationId, long msgId, long seq, long senderId)
            throws SQLException {
        if (!enabled) {
            return;
        }
        AdvisoryLocks.xactLock(c, OfflinePushPublisher.PUBLISHER_LOCK);
        boolean announced = true;
        try (PreparedStatement ps = c.prepareStatement("delete from offline_push_queue"
                + " where conversation_id = ? and msg_id = ? returning stage")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, msgId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    announced &= rs.getInt(1) != 0; // a row of the second stage waits for acks: announced
                }
            }
        }
        if (!announced) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("insert into offline_push_queue"
                + " (app_id, conversation_id, msg_id, stage) values (?, ?, ?, ?)")) {
            ps.setString(1, appId);
            ps.setLong(2, conversationId);
            ps.setLong(3, msgId);
            ps.setInt(4, RECALL_STAGE);
            ps.executeUpdate();
        }
        UnreadCounts.recalled(c, conversationId, seq, senderId);
    }
}

package io.imcore.message.group;

import io.imcore.message.live.LiveFrames;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Tells a group's members of a change: {@code {"type":"group","group_id":..,"change":..,...}} to their connected
 * devices (docs/live-protocol.md). The one place where every change of a group reaches its members.
 */
@ApplicationScoped
public class GroupNotices {

    private static final Logger LOG = Logger.getLogger(GroupNotices.class);
    /** Keeps a frame under LiveFrames.MAX_FRAME_CHARS: a change naming more users is told in several frames. */
    private static final int USER_IDS_PER_FRAME = 100;

    private final GroupStore groups;
    private final LiveFrames frames;
    private final TransactionSynchronizationRegistry transactions;
    private final Vertx vertx;

    public GroupNotices(GroupStore groups, LiveFrames frames, TransactionSynchronizationRegistry transactions,
            Vertx vertx) {
        this.groups = groups;
        this.frames = frames;
        this.transactions = transactions;
        this.vertx = vertx;
    }

    /**
     * Call inside the change's transaction: the members as the change leaves them, and the users it removed, get
     * the frame once it commits (nothing when it rolls back). {@code userIds}: whom the change is about (may be
     * empty); {@code fields}: what else it says.
     */
    void tell(Group group, String change, Collection<Long> userIds, Map<String, Object> fields,
            Collection<Long> removed) {
        Set<Long> recipients = new LinkedHashSet<>(groups.memberIds(group.conversationId));
        recipients.addAll(removed);
        List<Map<String, Object>> told = new ArrayList<>();
        List<Long> ids = List.copyOf(userIds);
        for (int from = 0; from == 0 || from < ids.size(); from += USER_IDS_PER_FRAME) {
            Map<String, Object> frame = new LinkedHashMap<>();
            frame.put("type", "group");
            frame.put("group_id", group.groupId);
            frame.put("change", change);
            if (!ids.isEmpty()) {
                frame.put("user_ids", ids.subList(from, Math.min(ids.size(), from + USER_IDS_PER_FRAME)));
            }
            frame.putAll(fields);
            told.add(frame);
        }
        String appId = group.appId;
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int status) {
                if (status != Status.STATUS_COMMITTED) {
                    return;
                }
                // on a worker of its own: this thread still belongs to the finished transaction
                vertx.executeBlocking(() -> {
                    told.forEach(frame -> frames.send(appId, recipients, frame));
                    return null;
                }, false).onFailure(e -> LOG.warnf("group %d: %s frame not sent: %s", group.groupId, change,
                        e.getMessage())); // the change is committed: a lost frame is read back over HTTP
            }
        });
    }
}

package io.imcore.message.group;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.Database;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.ChangeType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Tells a group's members of a change: a {@code group} event ({@code group_id}, {@code change}, {@code user_ids}
 * and what else the change says) in the change log of each member as the change leaves them and of each user it
 * removed, so their devices get it live with its cursor and again on a sync (docs/live-protocol.md). The one place
 * where every change of a group reaches its members.
 */
@ApplicationScoped
public class GroupNotices {

    /** Keeps an event small: a change naming more users is told as several events. */
    private static final int USER_IDS_PER_EVENT = 100;

    private final GroupStore groups;
    private final ChangeLog changeLog;
    private final Database database;
    private final ObjectMapper mapper;

    public GroupNotices(GroupStore groups, ChangeLog changeLog, Database database, ObjectMapper mapper) {
        this.groups = groups;
        this.changeLog = changeLog;
        this.database = database;
        this.mapper = mapper;
    }

    /**
     * Call as the change's last step, inside its transaction: the log's head locks must be the last it takes
     * (docs/message-storage.md "The change log"); the devices hear of it once it commits (nothing when it rolls
     * back). {@code userIds}: whom the change is about (may be empty); {@code fields}: what else it says.
     */
    void tell(Group group, String change, Collection<Long> userIds, Map<String, Object> fields,
            Collection<Long> removed) {
        groups.flush();
        TreeSet<Long> recipients = new TreeSet<>(groups.memberIds(group.conversationId));
        recipients.addAll(removed);
        List<Long> ids = List.copyOf(userIds);
        List<Change> changes = new ArrayList<>();
        for (int from = 0; from == 0 || from < ids.size(); from += USER_IDS_PER_EVENT) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("group_id", group.groupId);
            event.put("change", change);
            if (!ids.isEmpty()) {
                event.put("user_ids", ids.subList(from, Math.min(ids.size(), from + USER_IDS_PER_EVENT)));
            }
            event.putAll(fields);
            String payload = json(event);
            for (long user : recipients) {
                changes.add(new Change(group.appId, user, ChangeType.GROUP, group.groupId, group.conversationId, 0,
                        payload));
            }
        }
        changeLog.announce(database.inTransaction(c -> changeLog.append(c, changes)));
    }

    private String json(Map<String, Object> event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

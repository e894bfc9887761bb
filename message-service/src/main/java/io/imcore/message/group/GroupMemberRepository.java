package io.imcore.message.group;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;

@ApplicationScoped
public class GroupMemberRepository implements PanacheRepositoryBase<GroupMembership, GroupMembership.Key> {

    /** The owner first, then by joining time. */
    public List<GroupMembership> ofConversation(long conversationId) {
        return list("conversationId = ?1 order by role desc, joinedAt, userId", conversationId);
    }

    public boolean isMember(long conversationId, long userId) {
        return count("conversationId = ?1 and userId = ?2", conversationId, userId) > 0;
    }

    public long remove(long conversationId, Collection<Long> userIds) {
        return delete("conversationId = ?1 and userId in ?2", conversationId, userIds);
    }

    public long removeAll(long conversationId) {
        return delete("conversationId", conversationId);
    }

    /** Makes the longest-standing member the owner (after the owner left); nothing when no member is left. */
    public void promoteOldest(long conversationId) {
        find("conversationId = ?1 order by joinedAt, userId", conversationId).firstResultOptional()
                .ifPresent(oldest -> oldest.role = GroupMembership.ROLE_OWNER);
    }
}

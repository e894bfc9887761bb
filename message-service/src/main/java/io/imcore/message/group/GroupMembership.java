package io.imcore.message.group;

import io.imcore.message.conversation.ConversationStore;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * A group membership: the member's row of the group conversation, seen for membership only. Members are added by
 * {@link ConversationStore#addMembers} (plain SQL: it sets their read positions at the conversation's end).
 */
@Entity
@Table(name = "conversation_members")
@IdClass(GroupMembership.Key.class)
public class GroupMembership {

    public static final int ROLE_MEMBER = 0;
    public static final int ROLE_OWNER = 1;
    /** Named by the owner: invites, kicks and mutes plain members, sets the announcement. */
    public static final int ROLE_ADMIN = 2;

    @Id
    public Long conversationId;

    @Id
    public Long userId;

    public String appId;

    public short role;

    public Instant joinedAt;

    /** Sends are refused until then (null: not muted). */
    public Instant mutedUntil;

    public boolean owner() {
        return role == ROLE_OWNER;
    }

    public String roleName() {
        return switch (role) {
            case ROLE_OWNER -> "owner";
            case ROLE_ADMIN -> "admin";
            default -> "member";
        };
    }

    public static class Key implements Serializable {
        public Long conversationId;
        public Long userId;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(conversationId, k.conversationId)
                    && Objects.equals(userId, k.userId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(conversationId, userId);
        }
    }
}

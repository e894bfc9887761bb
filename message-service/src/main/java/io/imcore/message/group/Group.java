package io.imcore.message.group;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import org.hibernate.annotations.Formula;
import org.hibernate.annotations.Generated;

/**
 * A group. Its members are the rows of its conversation ({@link GroupMembership}); the owner and the member count are
 * read from them in the same select. A destroyed group keeps its row, so its id is never reused.
 */
@Entity
@Table(name = "groups")
@IdClass(Group.Key.class)
public class Group {

    @Id
    public String appId;

    @Id
    public Long groupId;

    public long conversationId;

    public String name;

    public String description;

    public String avatar;

    /** Null when an admin token acting as nobody created it. */
    public Long createdBy;

    @Generated
    public Instant createdAt;

    public Instant destroyedAt;

    /** Plain members' sends are refused while set; the owner and admins still send. */
    public boolean mutedAll;

    /** Set by the owner or an admin; shown in the group's info. */
    public String announcement;

    /** The member with the owner role, or null when the group has none. */
    @Formula("(select m.user_id from conversation_members m where m.conversation_id = conversation_id"
            + " and m.role = " + GroupMembership.ROLE_OWNER + " limit 1)")
    public Long ownerId;

    @Formula("(select count(*) from conversation_members m where m.conversation_id = conversation_id)")
    public int memberCount;

    public boolean destroyed() {
        return destroyedAt != null;
    }

    public static class Key implements Serializable {
        public String appId;
        public Long groupId;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(appId, k.appId) && Objects.equals(groupId, k.groupId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(appId, groupId);
        }
    }
}

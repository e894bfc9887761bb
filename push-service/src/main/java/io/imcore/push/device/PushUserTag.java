package io.imcore.push.device;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** A tag of a user ({@code push_user_tags}): every device of the user is in the tag's audience. */
@Entity
@Table(name = "push_user_tags")
@IdClass(PushUserTag.Key.class)
public class PushUserTag {

    @Id
    public String appId;

    @Id
    public String tag;

    @Id
    public Long userId;

    public static class Key implements Serializable {
        public String appId;
        public String tag;
        public Long userId;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(appId, k.appId) && Objects.equals(tag, k.tag)
                    && Objects.equals(userId, k.userId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(appId, tag, userId);
        }
    }
}

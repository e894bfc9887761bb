package io.imcore.push.device;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** A user's push settings ({@code push_users}); a user without a row gets pushes. */
@Entity
@Table(name = "push_users")
@IdClass(PushUser.Key.class)
public class PushUser {

    @Id
    public String appId;

    @Id
    public Long userId;

    /** The user's opt-out of every push to any of the user's devices. */
    public boolean pushDisabled;

    public static class Key implements Serializable {
        public String appId;
        public Long userId;

        public Key() {
        }

        public Key(String appId, Long userId) {
            this.appId = appId;
            this.userId = userId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(appId, k.appId) && Objects.equals(userId, k.userId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(appId, userId);
        }
    }
}

package io.imcore.auth.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/** A device of a user, numbered per user ({@code deviceSn}) in the order the user's devices were registered. */
@Entity
@Table(name = "devices")
@IdClass(Device.Key.class)
public class Device {

    @Id
    public Long userId;

    @Id
    public Integer deviceSn;

    public String deviceGuid;

    public String pushToken;

    @Column(updatable = false)
    public Instant createdAt;

    public Instant lastSeenAt;

    public static class Key implements Serializable {
        public Long userId;
        public Integer deviceSn;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(userId, k.userId) && Objects.equals(deviceSn, k.deviceSn);
        }

        @Override
        public int hashCode() {
            return Objects.hash(userId, deviceSn);
        }
    }
}

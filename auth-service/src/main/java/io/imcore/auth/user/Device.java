package io.imcore.auth.user;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * A device of a user, numbered per user ({@code deviceSn}) in the order the user's devices were registered. Its
 * queries are named, as {@link User}'s are.
 */
@Entity
@Table(name = "devices")
@IdClass(Device.Key.class)
@NamedQuery(name = Device.BY_GUID, query = "from Device where userId = ?1 and deviceGuid = ?2")
@NamedQuery(name = Device.MOST_RECENT_FIRST, query = "from Device where userId = ?1"
        + " order by lastSeenAt desc, deviceSn desc")
public class Device {

    public static final String BY_GUID = "Device.byGuid";
    public static final String MOST_RECENT_FIRST = "Device.mostRecentFirst";

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

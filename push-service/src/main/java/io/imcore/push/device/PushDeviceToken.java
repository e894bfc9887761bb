package io.imcore.push.device;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A provider token bound to a device for one channel ({@code push_device_tokens}; at most one per device and channel). */
@Entity
@Table(name = "push_device_tokens")
@IdClass(PushDeviceToken.Key.class)
public class PushDeviceToken {

    @Id
    public Long deviceId;

    /** A Channel's wire name. */
    @Id
    public String channel;

    public String appId;

    public String token;

    /** The name of the app's certificate the token was bound with. */
    public String notifierName;

    /** The certificate's environment: 0 development, 1 production. */
    @JdbcTypeCode(SqlTypes.SMALLINT)
    public int environment;

    public Instant boundAt;

    public static class Key implements Serializable {
        public Long deviceId;
        public String channel;

        public Key() {
        }

        public Key(Long deviceId, String channel) {
            this.deviceId = deviceId;
            this.channel = channel;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(deviceId, k.deviceId) && Objects.equals(channel, k.channel);
        }

        @Override
        public int hashCode() {
            return Objects.hash(deviceId, channel);
        }
    }
}

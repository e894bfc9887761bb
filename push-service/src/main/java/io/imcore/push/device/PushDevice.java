package io.imcore.push.device;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.DynamicUpdate;

/**
 * A device of the registry ({@code push_devices}). Rows are created by the device feed's upsert (or ahead of it by a
 * bind, DeviceStore), so the entity only edits the alias; push_token is the feed's and only read here. Dynamic
 * updates write the changed column alone, never a stale copy of the others.
 */
@Entity
@Table(name = "push_devices")
@DynamicUpdate
public class PushDevice {

    @Id
    @Column(insertable = false, updatable = false)
    public Long deviceId;

    @Column(insertable = false, updatable = false)
    public String appId;

    @Column(insertable = false, updatable = false)
    public long userId;

    @Column(insertable = false, updatable = false)
    public int deviceSn;

    @Column(insertable = false, updatable = false)
    public String pushToken;

    public String alias;

    @Column(insertable = false, updatable = false)
    public Instant registeredAt;
}

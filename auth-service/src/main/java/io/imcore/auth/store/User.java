package io.imcore.auth.store;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** A user of an app; tokens carry {@code tokenVersion} and stop working when a password change moves it on. */
@Entity
@Table(name = "users")
public class User {

    @Id
    @SequenceGenerator(name = "user_id_seq", sequenceName = "user_id_seq", allocationSize = 1)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "user_id_seq")
    public Long userId;

    public String appId;

    public String username;

    public String mobile;

    public String email;

    public String passwordHash;

    public int tokenVersion = 1;

    public boolean disabled;

    /** The device_sn the user's next device gets; handed out under the user row lock. */
    public int nextDeviceSn = 1;
}

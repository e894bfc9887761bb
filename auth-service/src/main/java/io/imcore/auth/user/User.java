package io.imcore.auth.user;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * A user of an app; tokens carry {@code tokenVersion} and stop working when a password change moves it on.
 * <p>
 * Its queries are named, so Hibernate parses them when it starts: parsed on first use, ~100 concurrent first calls
 * each parsed them at once and exhausted the heap (docs/benchmarks.md "Memory and the JVM").
 */
@Entity
@Table(name = "users")
@NamedQuery(name = User.BY_ID, query = "from User where appId = ?1 and userId = ?2")
@NamedQuery(name = User.BY_USERNAME, query = "from User where appId = ?1 and lower(username) = lower(?2)")
@NamedQuery(name = User.BY_MOBILE, query = "from User where appId = ?1 and mobile = ?2")
@NamedQuery(name = User.BY_EMAIL, query = "from User where appId = ?1 and lower(email) = lower(?2)")
@NamedQuery(name = User.IN_APP, query = "from User where appId = ?1 and userId in ?2 order by userId")
public class User {

    public static final String BY_ID = "User.byId";
    public static final String BY_USERNAME = "User.byUsername";
    public static final String BY_MOBILE = "User.byMobile";
    public static final String BY_EMAIL = "User.byEmail";
    public static final String IN_APP = "User.inApp";

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

package io.imcore.push.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** Push switched on or off for an app; an app without a row has push off. */
@Entity
@Table(name = "push_apps")
public class PushApp {

    @Id
    public String appId;

    public boolean pushEnabled;

    public Instant updatedAt;
}

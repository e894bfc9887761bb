package io.imcore.auth.app;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/** An app (tenant); its admin tokens carry {@code adminTokenVersion} and stop working when it moves on. */
@Entity
@Table(name = "apps")
@NamedQuery(name = App.OLDEST_FIRST, query = "from App order by createdAt, appId") // named, as User's queries are
public class App {

    public static final String OLDEST_FIRST = "App.oldestFirst";

    @Id
    public String appId;

    public String name;

    public int adminTokenVersion = 1;

    /** Set by the database (default now()) when the app is created. */
    @Column(insertable = false, updatable = false)
    public Instant createdAt;
}

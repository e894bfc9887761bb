package io.imcore.auth.store;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An app (tenant); its admin tokens carry {@code adminTokenVersion} and stop working when it moves on. */
@Entity
@Table(name = "apps")
public class App {

    @Id
    public String appId;

    public String name;

    public int adminTokenVersion = 1;
}

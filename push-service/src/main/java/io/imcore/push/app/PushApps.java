package io.imcore.push.app;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** Push switched on or off per app ({@code push_apps}); an app without a row has push off. */
@ApplicationScoped
public class PushApps {

    private final Database database;

    public PushApps(Database database) {
        this.database = database;
    }

    public boolean isEnabled(String appId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select push_enabled from push_apps where app_id = ?")) {
                ps.setString(1, appId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && rs.getBoolean(1);
                }
            }
        });
    }

    public void setEnabled(String appId, boolean enabled) {
        database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_apps (app_id, push_enabled)"
                    + " values (?, ?) on conflict (app_id) do update set push_enabled = excluded.push_enabled,"
                    + " updated_at = now()")) {
                ps.setString(1, appId);
                ps.setBoolean(2, enabled);
                return ps.executeUpdate();
            }
        });
    }
}

package io.imcore.message.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.imcore.message.AppWithUsers;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The cross-replica hop of a sent message (docs/live-protocol.md "Across replicas"): the NOTIFY is sent after the
 * send's commit by the replica's announcing connection, not in the send's transaction, and names the message.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class LiveAnnouncementTest extends AppWithUsers {

    private static final String OTHER_REPLICA = "announcement-test-replica";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aSendIsAnnouncedToTheOtherReplicaAfterItsCommitNotInItsTransaction() throws Exception {
        try (Connection listening = dataSource.getConnection(); Connection admin = dataSource.getConnection()) {
            listening.setAutoCommit(true);
            admin.setAutoCommit(true);
            try (Statement s = listening.createStatement()) {
                s.execute("LISTEN \"" + LiveRouter.channel(OTHER_REPLICA) + "\"");
            }
            // bob's phone is connected to another replica, alive
            try (Statement s = admin.createStatement()) {
                s.execute("insert into replicas (replica_id, heartbeat_at) values ('" + OTHER_REPLICA + "', now())"
                        + " on conflict (replica_id) do update set heartbeat_at = now()");
            }
            try (PreparedStatement ps = admin.prepareStatement("insert into presence (app_id, user_id, device_sn,"
                    + " replica_id, connection_id) values (?, ?, 1, ?, 'test')")) {
                ps.setString(1, api.appId);
                ps.setLong(2, bob);
                ps.setString(3, OTHER_REPLICA);
                ps.executeUpdate();
            }
            try {
                api.sendText(alice, bob, "across replicas");
                api.sendText(carol, bob, "across replicas too");

                List<PGNotification> received = new ArrayList<>();
                List<Long> recipients = new ArrayList<>();
                long deadline = System.currentTimeMillis() + 10_000;
                while (recipients.size() < 2 && System.currentTimeMillis() < deadline) {
                    PGNotification[] batch = listening.unwrap(PGConnection.class).getNotifications(500);
                    for (PGNotification n : batch == null ? new PGNotification[0] : batch) {
                        received.add(n);
                        JsonNode payload = new ObjectMapper().readTree(n.getParameter());
                        assertEquals(api.appId, payload.get("a").asText());
                        payload.get("d").forEach(entry -> recipients.add(entry.get(2).get(0).asLong()));
                    }
                }
                assertEquals(List.of(bob, bob), recipients, "both messages announced to the replica, once each");
                for (PGNotification n : received) {
                    // the notifying backend is the announcing connection, whose only statement is the NOTIFY; in
                    // the send's transaction it was a pooled connection that went on to COMMIT and other work
                    String last = lastStatement(admin, n.getPID());
                    assertNotNull(last, "the notifying backend is still connected");
                    assertTrue(last.startsWith("select pg_notify(t.channel, t.payload)"), last);
                }
            } finally {
                try (PreparedStatement ps = admin.prepareStatement("delete from presence where replica_id = ?")) {
                    ps.setString(1, OTHER_REPLICA);
                    ps.executeUpdate();
                }
                try (Statement s = admin.createStatement()) {
                    s.execute("delete from replicas where replica_id = '" + OTHER_REPLICA + "'");
                }
            }
        }
    }

    private static String lastStatement(Connection c, int pid) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("select query from pg_stat_activity where pid = ?")) {
            ps.setInt(1, pid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}

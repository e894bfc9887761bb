package io.imcore.auth.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.auth.app.App;
import io.imcore.auth.app.AppStore;
import io.imcore.common.events.AuthEvent;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The outbox pattern on Hibernate: an entity written through Panache and its event written by plain JDBC on the
 * transaction's connection, the one the session uses (AuthEvents, through Database.inTransaction), are one JTA
 * transaction, so they commit together or not at all.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class OutboxTransactionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AppStore apps;

    @Inject
    AuthEvents events;

    @Test
    void aFailureAfterBothWritesLeavesNeitherTheEntityNorTheEvent() throws Exception {
        String appId = "outboxtx" + System.nanoTime();
        assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            createApp(appId, 1);
            throw new IllegalStateException("fails after the entity and the outbox row were written");
        }));

        // the app id is free again (the entity rolled back), and this committed event comes after any earlier one
        // of the same key: the relay publishes in outbox order, one key stays on one partition
        QuarkusTransaction.requiringNew().run(() -> createApp(appId, 2));

        List<ConsumerRecord<String, String>> records =
                TopicReader.await("auth.events", r -> appId.equals(r.key()), 1, Duration.ofSeconds(20));
        assertEquals(1, records.size(), "only the committed event: " + records);
        assertEquals(2, JSON.readTree(records.get(0).value()).get("admin_token_version").asInt(),
                "the rolled-back event never reached the outbox");
        assertEquals(2, QuarkusTransaction.requiringNew().call(() -> apps.findById(appId).adminTokenVersion));
    }

    @Test
    void anEntityAndItsEventCommitTogether() throws Exception {
        String appId = "outboxtx" + System.nanoTime();
        QuarkusTransaction.requiringNew().run(() -> createApp(appId, 3));

        List<ConsumerRecord<String, String>> records =
                TopicReader.await("auth.events", r -> appId.equals(r.key()), 1, Duration.ofSeconds(20));
        assertEquals(1, records.size(), "the event of the committed entity is published: " + records);
        assertEquals(3, JSON.readTree(records.get(0).value()).get("admin_token_version").asInt());
        assertEquals("outbox test", QuarkusTransaction.requiringNew().call(() -> apps.findById(appId).name));
    }

    private void createApp(String appId, int adminTokenVersion) {
        App app = new App();
        app.appId = appId;
        app.name = "outbox test";
        app.adminTokenVersion = adminTokenVersion;
        // flushed: the entity's row is in the database before the outbox row, not only in the session
        apps.persistAndFlush(app);
        events.publish(AuthEvent.app(AuthEvent.APP_CREATED, appId, adminTokenVersion));
    }
}

package io.imcore.message.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.message.AppWithUsers;
import io.imcore.message.webhook.WebhookEventQueue.CreatedMessage;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The cost of message.created on the send path (docs/webhooks.md "How they travel"): a batch of an app without the
 * subscription runs no statement once the app's subscriptions are in memory; with it, one insert for the batch.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class WebhookEventQueueTest extends AppWithUsers {

    private static final AtomicLong MSG_IDS = new AtomicLong(9_000_000_000L);

    @Inject
    WebhookEventQueue queue;

    private List<CreatedMessage> batch(int size) {
        List<CreatedMessage> batch = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            batch.add(new CreatedMessage(api.appId, 1_000 + i, MSG_IDS.incrementAndGet(), "direct", alice, bob, 0,
                    "hi " + i, null, null, null, System.currentTimeMillis()));
        }
        return batch;
    }

    /** The statements the batch's queuing prepared on the transaction's connection. */
    private int statements(List<CreatedMessage> batch) {
        AtomicInteger prepared = new AtomicInteger();
        database.inTransaction(c -> {
            Connection counted = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().startsWith("prepare")) {
                            prepared.incrementAndGet();
                        }
                        return method.invoke(c, args);
                    });
            queue.messagesCreated(counted, batch);
            return null;
        });
        return prepared.get();
    }

    private int queued() {
        return database.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "select count(*) from webhook_deliveries where app_id = ? and event_type = 'message.created'")) {
                s.setString(1, api.appId);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    @Test
    void aBatchCostsNoStatementWithoutTheSubscriptionAndOneInsertWithIt() throws Exception {
        assertEquals(1, statements(batch(50)), "the app's subscriptions read once");
        assertEquals(0, statements(batch(50)), "then nothing: the app has no endpoint");
        try (AppEndpointStub receiver = new AppEndpointStub()) {
            api.asAdmin().body(Map.of("url", receiver.url(), "events", List.of("group.created"))).post("/app/webhook")
                    .then().statusCode(200);
            assertEquals(1, statements(batch(50)), "saving forgot them: read again");
            assertEquals(0, statements(batch(50)), "an endpoint without message.created costs nothing either");
            api.asAdmin().body(Map.of("url", receiver.url(), "events", List.of("message.created")))
                    .post("/app/webhook").then().statusCode(200);
            assertEquals(2, statements(batch(50)), "read again, and one insert");
            assertEquals(1, statements(batch(50)), "one insert for 50 messages");
            assertEquals(100, queued());
        }
    }
}

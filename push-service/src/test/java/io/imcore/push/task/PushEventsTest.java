package io.imcore.push.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * push.events (docs/events.md): the push database's triggers write a task's finish and a failed offline push to the
 * outbox in the change's transaction, whoever makes it, and push-service's relay publishes them.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class PushEventsTest {

    @Inject
    Database database;

    @Inject
    TaskStore tasks;

    @Inject
    ObjectMapper mapper;

    private final String appId = "push-events-" + UUID.randomUUID();

    private void update(String sql, Object... values) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < values.length; i++) {
                    ps.setObject(i + 1, values[i]);
                }
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** The topic's records of this key once {@code expected} arrived: a later one of the key would come after. */
    private List<JsonNode> published(String key, int expected) throws Exception {
        assertEquals(expected, TopicReader.await("push.events", r -> key.equals(r.key()), expected,
                Duration.ofSeconds(30)).size(), "published: " + key);
        List<JsonNode> all = new ArrayList<>();
        for (ConsumerRecord<String, String> record : TopicReader.readAll("push.events")) {
            if (key.equals(record.key())) {
                all.add(mapper.readTree(record.value()));
            }
        }
        return all;
    }

    @Test
    void aTaskReachingAFinalStatePublishesItsCountsOnce() throws Exception {
        long task = database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request,"
                    + " batches_total, batches_done, devices_expanded) values (?, 'expanding', '{}'::jsonb, 2, 1, 5)"
                    + " returning task_id")) {
                ps.setString(1, appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
        update("insert into push_task_counts (task_id, channel, target, sent, failed, rejected, fallback_out)"
                + " values (?, 'ios', 3, 2, 0, 0, 1), (?, 'vendor_a', 2, 1, 0, 1, 0)", task, task);
        database.inTransaction(c -> {
            tasks.finish(c, task, TaskState.DISPATCHING); // a batch is left: not final, nothing published
            return null;
        });
        update("update push_tasks set batches_done = 2 where task_id = ?", task);
        database.inTransaction(c -> {
            tasks.finish(c, task, TaskState.DISPATCHING); // every batch done: done
            return null;
        });
        List<JsonNode> events = published(appId + ":push_task:" + task, 1);
        assertEquals(1, events.size(), events.toString());
        JsonNode event = events.get(0);
        assertEquals("push.task.finished", event.get("type").asText());
        assertEquals(appId, event.get("app_id").asText());
        JsonNode data = event.get("data");
        assertEquals(task, data.get("task_id").asLong());
        assertEquals("done", data.get("state").asText());
        assertEquals(5, data.get("devices_expanded").asInt());
        assertEquals(2, data.get("counts").get("ios").get("target").asInt(), "less the one moved by fallback");
        assertEquals(2, data.get("counts").get("ios").get("sent").asInt());
        assertEquals(1, data.get("counts").get("vendor_a").get("rejected").asInt());
    }

    @Test
    void anOfflinePushFinishedFailedOrRejectedPublishesItsDevice() throws Exception {
        for (long msgId = 1; msgId <= 3; msgId++) {
            update("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id, conversation,"
                    + " decision, channel, state)"
                    + " values (?, ?, 10001, 2, 77, 'u:10002', 'send', 'vendor_b', 'sending')",
                    appId, msgId);
        }
        update("update offline_push_trace set state = 'sent' where app_id = ? and msg_id = 1", appId);
        update("update offline_push_trace set state = 'rejected', reason = 'token unregistered'"
                + " where app_id = ? and msg_id = 2", appId);
        update("update offline_push_trace set state = 'failed', reason = 'show_end_time passed'"
                + " where app_id = ? and msg_id = 3", appId);
        List<JsonNode> events = published(appId + ":offline_push:10001", 2);
        assertEquals(2, events.size(), "the sent one publishes nothing: " + events);
        JsonNode rejected = events.get(0);
        assertEquals("offline_push.failed", rejected.get("type").asText());
        JsonNode data = rejected.get("data");
        assertEquals(2, data.get("msg_id").asLong());
        assertEquals(10001, data.get("user_id").asLong());
        assertEquals(2, data.get("device_sn").asInt());
        assertEquals("vendor_b", data.get("channel").asText());
        assertEquals("u:10002", data.get("conversation").asText());
        assertEquals("rejected", data.get("outcome").asText());
        assertEquals("token unregistered", data.get("reason").asText());
        assertEquals("failed", events.get(1).get("data").get("outcome").asText());
        assertEquals("show_end_time passed", events.get(1).get("data").get("reason").asText());
    }
}

package io.imcore.message.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.message.live.LiveRouter.NotificationPayload;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The NOTIFY payloads of svcpush notifications stay under PostgreSQL's 8000 bytes and name every device once. */
class LiveRouterTest {

    @Test
    void fiveHundredDevicesWithTheLongestIdsAreSplitUnderTheLimit() throws Exception {
        List<LivePush.Target> targets = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            targets.add(new LivePush.Target(Long.MAX_VALUE - i, Integer.MAX_VALUE - i, i % 2 == 0 ? null : -i));
        }
        Map<String, List<LivePush.Target>> byReplica = new LinkedHashMap<>();
        byReplica.put("replica_a", targets);
        byReplica.put("replica_b", List.of(new LivePush.Target(10_001, 1, 3)));

        List<NotificationPayload> payloads = LiveRouter.notificationPayloads(byReplica);

        ObjectMapper json = new ObjectMapper();
        List<LivePush.Target> onA = new ArrayList<>();
        for (NotificationPayload payload : payloads) {
            // as the storing statement completes it, with the longest row id
            String full = "{\"n\":" + Long.MAX_VALUE + "," + payload.tail() + "}";
            assertTrue(full.getBytes(StandardCharsets.UTF_8).length < 8000, full.length() + " bytes");
            JsonNode parsed = json.readTree(full);
            for (JsonNode entry : parsed.get("t")) {
                LivePush.Target target = new LivePush.Target(entry.get(0).asLong(), entry.get(1).asInt(),
                        entry.get(2).isNull() ? null : entry.get(2).asInt());
                if (payload.channel().equals("live_replica_a")) {
                    onA.add(target);
                } else {
                    assertEquals("live_replica_b", payload.channel());
                    assertEquals(new LivePush.Target(10_001, 1, 3), target);
                }
            }
        }
        assertEquals(targets, onA);
        assertTrue(payloads.size() > 2, "replica_a's devices need several payloads");
    }
}

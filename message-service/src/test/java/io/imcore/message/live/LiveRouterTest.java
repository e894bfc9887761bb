package io.imcore.message.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.message.conversation.PlacedMessage;
import io.imcore.message.conversation.PlacedMessage.Online;
import io.imcore.message.live.LiveRouter.NotificationPayload;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NOTIFY payloads of svcpush notifications stay under PostgreSQL's 8000 bytes and name every device once; the
 * messages of several commits go to each replica in one payload, in commit order.
 */
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

    @Test
    void severalCommitsReachEachReplicaInOnePayloadInCommitOrder() throws Exception {
        PlacedMessage first = placed(11, 101, new Online(1, "a"), new Online(2, "b"));
        PlacedMessage second = placed(11, 102, new Online(1, "a"));
        PlacedMessage third = placed(12, 103, new Online(3, "b"), new Online(4, "b"));
        List<LiveRouter.Notice> notices = LiveRouter.notices(List.of(
                new LiveRouter.Committed("app", List.of(first, placed(13, 104))),
                new LiveRouter.Committed("app", List.of(second)),
                new LiveRouter.Committed("app", List.of(third))));

        assertEquals(List.of(
                new LiveRouter.Notice("live_a", "{\"a\":\"app\",\"d\":[[11,101,[1]],[11,102,[1]]]}"),
                new LiveRouter.Notice("live_b", "{\"a\":\"app\",\"d\":[[11,101,[2]],[12,103,[3,4]]]}")), notices);
    }

    @Test
    void aCommitWithManyRecipientsIsSplitUnderTheLimitAndNamesEachOnce() throws Exception {
        List<PlacedMessage> placed = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            List<Online> online = new ArrayList<>();
            for (int u = 0; u < 100; u++) {
                online.add(new Online(Long.MAX_VALUE - u, "a"));
            }
            placed.add(new PlacedMessage(Long.MAX_VALUE - 1, 0, 0, m, Long.MAX_VALUE - 100 + m, false, online));
        }
        List<LiveRouter.Notice> notices = LiveRouter.notices(List.of(new LiveRouter.Committed("app", placed)));

        ObjectMapper json = new ObjectMapper();
        Map<Long, Integer> perMessage = new LinkedHashMap<>();
        for (LiveRouter.Notice notice : notices) {
            assertTrue(notice.payload().getBytes(StandardCharsets.UTF_8).length < 8000);
            for (JsonNode entry : json.readTree(notice.payload()).get("d")) {
                perMessage.merge(entry.get(1).asLong(), entry.get(2).size(), Integer::sum);
            }
        }
        assertEquals(20, perMessage.size());
        perMessage.values().forEach(n -> assertEquals(100, n));
        assertTrue(notices.size() > 1, "2,000 user ids need several payloads");
    }

    private static PlacedMessage placed(long conversationId, long msgId, Online... online) {
        return new PlacedMessage(conversationId, 0, 0, 1, msgId, false, List.of(online));
    }
}

package io.imcore.message.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog.Committed;
import io.imcore.message.changelog.ChangeType;
import io.imcore.message.changelog.Logged;
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
        List<LiveRouter.Notice> notices = LiveRouter.notices(List.of(
                new Committed(List.of(message(1, 5, 11, 101, "a"), message(2, 9, 11, 101, "b"),
                        message(7, 1, 13, 104))),
                new Committed(List.of(message(1, 6, 11, 102, "a"))),
                new Committed(List.of(message(3, 2, 12, 103, "b"), message(4, 8, 12, 103, "b"),
                        other(1, 7, "a")))));

        assertEquals(List.of(
                new LiveRouter.Notice("live_a", "{\"a\":\"app\",\"d\":[[11,101,[1],[5]],[11,102,[1],[6]]],\"e\":[[1,7]]}"),
                new LiveRouter.Notice("live_b", "{\"a\":\"app\",\"d\":[[11,101,[2],[9]],[12,103,[3,4],[2,8]]]}")),
                notices);
    }

    @Test
    void aCommitWithManyRecipientsIsSplitUnderTheLimitAndNamesEachOnce() throws Exception {
        List<Logged> logged = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            for (int u = 0; u < 100; u++) {
                logged.add(message(Long.MAX_VALUE - u, Long.MAX_VALUE - m, Long.MAX_VALUE - 1,
                        Long.MAX_VALUE - 100 + m, "a"));
            }
            logged.add(other(Long.MAX_VALUE - m, Long.MAX_VALUE, "a"));
        }
        List<LiveRouter.Notice> notices = LiveRouter.notices(List.of(new Committed(logged)));

        ObjectMapper json = new ObjectMapper();
        Map<Long, Integer> perMessage = new LinkedHashMap<>();
        int others = 0;
        for (LiveRouter.Notice notice : notices) {
            assertTrue(notice.payload().getBytes(StandardCharsets.UTF_8).length < 8000);
            JsonNode payload = json.readTree(notice.payload());
            for (JsonNode entry : payload.path("d")) {
                assertEquals(entry.get(2).size(), entry.get(3).size(), "a position per user");
                perMessage.merge(entry.get(1).asLong(), entry.get(2).size(), Integer::sum);
            }
            others += payload.path("e").size();
        }
        assertEquals(20, perMessage.size());
        perMessage.values().forEach(n -> assertEquals(100, n));
        assertEquals(20, others);
        assertTrue(notices.size() > 1, "2,000 user ids need several payloads");
    }

    private static Logged message(long user, long position, long conversationId, long msgId, String... replicas) {
        return new Logged(new Change("app", user, ChangeType.MESSAGE, 0, conversationId, msgId, null), position,
                List.of(replicas));
    }

    private static Logged other(long user, long position, String... replicas) {
        return new Logged(new Change("app", user, ChangeType.READ, 0, 1, 0, "{}"), position, List.of(replicas));
    }
}

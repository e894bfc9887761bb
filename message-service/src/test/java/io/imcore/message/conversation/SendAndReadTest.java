package io.imcore.message.conversation;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class SendAndReadTest extends AppWithUsers {

    @Test
    void textToUserAppearsInBothViewsOfTheConversation() {
        Map<String, Object> body = MessageApi.text("hello bob", List.of(bob));
        body.put("ext", "{\"k\":1}");
        api.send(alice, body).body("code", equalTo(200)).body("data", equalTo(true)).body("message", nullValue());

        api.page(bob, alice, 0, 20)
                .body("code", equalTo(200))
                .body("data.messages", hasSize(1))
                .body("data.messages_size", equalTo(1))
                .body("data.is_last", equalTo(true))
                .body("data.messages[0].content", equalTo("hello bob"))
                .body("data.messages[0].ctype", equalTo("TEXT"))
                .body("data.messages[0].status", equalTo("UNREAD"))
                .body("data.messages[0].ext", equalTo("{\"k\":1}"))
                .body("data.messages[0].set_ext", equalTo(true))
                .body("data.messages[0].set_attachment", equalTo(false))
                .body("data.messages[0].from_xid.uid", equalTo((int) alice))
                .body("data.messages[0].to_xid.uid", equalTo((int) bob));
        // the sender sees the same message, with the peer's receipt as its status
        api.page(alice, bob, 0, 20).body("data.messages[0].content", equalTo("hello bob"))
                .body("data.messages[0].status", equalTo("UNREAD"));
        api.unread(bob).body("data", hasSize(1)).body("data[0].conversation_id.uid", equalTo((int) alice))
                .body("data[0].num", equalTo(1));
        api.unread(alice).body("data[0].num", equalTo(0));
    }

    @Test
    void pagesWalkBackwardsWithoutGapsOrRepeats() {
        for (int i = 0; i < 25; i++) {
            api.sendText(i % 2 == 0 ? alice : bob, i % 2 == 0 ? bob : alice, "m" + i);
        }
        List<String> seen = new ArrayList<>();
        long start = 0;
        List<Boolean> lasts = new ArrayList<>();
        do {
            var page = api.page(bob, alice, start, 10).extract();
            List<String> contents = page.path("data.messages.content");
            List<Number> ids = page.path("data.messages.msg_id");
            for (int i = 1; i < ids.size(); i++) {
                assertTrue(ids.get(i).longValue() > ids.get(i - 1).longValue(), "ascending within a page");
            }
            seen.addAll(0, contents);
            boolean last = page.path("data.is_last");
            lasts.add(last);
            start = ((Number) page.path("data.next_msg_id")).longValue();
            assertEquals(ids.isEmpty() ? 0 : ids.get(0).longValue(), start, "next_msg_id is the smallest in the page");
        } while (!lasts.get(lasts.size() - 1));
        assertEquals(List.of(false, false, true), lasts);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            expected.add("m" + i);
        }
        assertEquals(expected, seen);
    }

    @Test
    void ackMarksReadUpToTheMessageAndNeverMovesBack() {
        api.sendText(alice, bob, "one");
        api.sendText(alice, bob, "two");
        api.sendText(alice, bob, "three");
        List<Number> ids = api.page(bob, alice, 0, 20).extract().path("data.messages.msg_id");
        ack(bob, alice, ids.get(1).longValue()).body("data", equalTo(true));
        api.page(bob, alice, 0, 20).body("data.messages.status", contains("READ", "READ", "UNREAD"));
        api.page(alice, bob, 0, 20).body("data.messages.status", contains("READ", "READ", "UNREAD"));
        api.unread(bob).body("data[0].num", equalTo(1));
        ack(bob, alice, ids.get(0).longValue()).body("code", equalTo(200));
        api.unread(bob).body("data[0].num", equalTo(1));
        ack(bob, alice, ids.get(2).longValue());
        ack(bob, alice, ids.get(2).longValue()).body("code", equalTo(200));
        api.unread(bob).body("data[0].num", equalTo(0));
    }

    @Test
    void deletingHidesHistoryForTheCallerOnlyUntilANewMessage() {
        api.sendText(alice, bob, "old");
        api.as(bob).queryParam("conversation_id", alice).delete("/message/conversation").then()
                .body("code", equalTo(200)).body("data", equalTo(true));
        api.page(bob, alice, 0, 20).body("data.messages", hasSize(0)).body("data.is_last", equalTo(true));
        api.unread(bob).body("data", hasSize(0));
        api.page(alice, bob, 0, 20).body("data.messages.content", contains("old"));
        api.sendText(alice, bob, "new");
        api.page(bob, alice, 0, 20).body("data.messages.content", contains("new"));
        api.unread(bob).body("data[0].num", equalTo(1));
    }

    @Test
    void unreadListsMostRecentConversationFirst() {
        api.sendText(alice, bob, "from alice");
        api.sendText(carol, bob, "from carol");
        api.sendText(carol, bob, "again");
        api.unread(bob).body("data.conversation_id.uid", contains((int) carol, (int) alice))
                .body("data.num", contains(2, 1));
        api.sendText(alice, bob, "alice again");
        api.unread(bob).body("data.conversation_id.uid", contains((int) alice, (int) carol));
    }

    @Test
    void notificationsComeFromTheSystemIntoConversationZero() {
        Map<String, Object> body = MessageApi.text("maintenance tonight", List.of(alice, bob));
        api.asAdmin().body(body).post("/message/notify").then().body("code", equalTo(200));
        api.page(bob, 0, 0, 20).body("data.messages[0].content", equalTo("maintenance tonight"))
                .body("data.messages[0].from_xid.uid", equalTo(0));
        api.unread(alice).body("data[0].conversation_id.uid", equalTo(0)).body("data[0].num", equalTo(1));
        api.as(alice).body(body).put("/message/notify").then().body("code", equalTo(10010));
    }

    @Test
    void pagingIsStableWhileNewMessagesArrive() throws Exception {
        for (int i = 0; i < 30; i++) {
            api.sendText(alice, bob, "old" + i);
        }
        ExecutorService writers = Executors.newFixedThreadPool(2);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        for (int w = 0; w < 2; w++) {
            writers.submit(() -> {
                while (writing.get()) {
                    api.sendText(bob, alice, "new" + written.incrementAndGet());
                }
                return null;
            });
        }
        // page back through the 30 old messages while new ones land on top
        List<String> seen = new ArrayList<>();
        var first = api.page(alice, bob, 0, 7).extract();
        long start = ((Number) first.path("data.next_msg_id")).longValue();
        List<String> firstPage = first.path("data.messages.content");
        boolean last = first.path("data.is_last");
        while (!last) {
            var page = api.page(alice, bob, start, 7).extract();
            seen.addAll(0, page.path("data.messages.content"));
            start = ((Number) page.path("data.next_msg_id")).longValue();
            last = page.path("data.is_last");
        }
        writing.set(false);
        writers.shutdown();
        assertTrue(writers.awaitTermination(30, TimeUnit.SECONDS));
        seen.addAll(firstPage);
        List<String> old = seen.stream().filter(c -> c.startsWith("old")).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            expected.add("old" + i);
        }
        assertEquals(expected, old, "every old message exactly once, in order");
        assertEquals(seen.size(), new java.util.HashSet<>(seen).size(), "no message twice");
        assertTrue(written.get() > 0, "messages were written during the walk");
    }

    @Test
    void concurrentSendersShareOneOrderAndExactCounts() throws Exception {
        int threads = 8;
        int each = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long from = t % 2 == 0 ? alice : bob;
            long to = t % 2 == 0 ? bob : alice;
            int thread = t;
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < each; i++) {
                    api.sendText(from, to, "t" + thread + "-" + i);
                }
                return null;
            }));
        }
        go.countDown();
        for (var f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        List<Number> ids = new ArrayList<>();
        long start = 0;
        boolean last = false;
        while (!last) {
            var page = api.page(alice, bob, start, 100).extract();
            ids.addAll(0, page.<List<Number>>path("data.messages.msg_id"));
            start = ((Number) page.path("data.next_msg_id")).longValue();
            last = page.path("data.is_last");
        }
        assertEquals(threads * each, ids.size());
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i).longValue() > ids.get(i - 1).longValue(), "msg_ids strictly increase");
        }
        Integer conversationLastSeq = database.read(c -> {
            try (var ps = c.prepareStatement("select last_seq from conversations where app_id = ? and kind = 1")) {
                ps.setString(1, api.appId);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
        assertEquals(threads * each, conversationLastSeq, "one position per message, none lost or doubled");
    }

    @Test
    void firstMessagesCrossingInANewConversationNeverCountTheSendersOwn() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        for (int pair = 0; pair < 10; pair++) {
            long a = api.newUser();
            long b = api.newUser();
            CountDownLatch go = new CountDownLatch(1);
            var first = pool.submit(() -> {
                go.await();
                api.sendText(a, b, "hi b");
                return null;
            });
            var second = pool.submit(() -> {
                go.await();
                api.sendText(b, a, "hi a");
                return null;
            });
            go.countDown();
            first.get(30, TimeUnit.SECONDS);
            second.get(30, TimeUnit.SECONDS);
            // whoever sent second has read the first (sending reads what came before): one unread in all,
            // never the sender's own message
            List<Integer> nums = new ArrayList<>(api.unread(a).extract().<List<Integer>>path("data.num"));
            nums.addAll(api.unread(b).extract().<List<Integer>>path("data.num"));
            assertEquals(1, nums.stream().mapToInt(Integer::intValue).sum(), "unread of a and b: " + nums);
        }
        pool.shutdown();
    }

    private io.restassured.response.ValidatableResponse ack(long viewer, long conversation, long msgId) {
        return api.as(viewer).queryParam("conversation_id", conversation).queryParam("device_sn", 0)
                .queryParam("msg_id", msgId).get("/message/ack").then().statusCode(200);
    }
}

package io.imcore.push.offlinepush;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.events.MessageEvent;
import io.imcore.common.events.MessageEvent.PushOptions;
import io.imcore.common.events.MessageEvent.Recipient;
import io.imcore.common.store.Database;
import io.imcore.push.PushApi;
import io.imcore.push.offlinepush.OfflinePushStore.UserSettings;
import io.imcore.testing.Eventually;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * push-service's side of offline push (docs/offline-push.md): message.events in, a decision per recipient device in
 * offline_push_trace, the notification on the device's OS channel topic; and the settings endpoints.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class OfflinePushTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final AtomicLong MSG_IDS = new AtomicLong(System.currentTimeMillis());

    @Inject
    Database database;

    @Inject
    ObjectMapper mapper;

    @Inject
    OfflinePushTrace traces;

    PushApi api;
    long alice;

    @BeforeEach
    void setUp() {
        api = PushApi.newApp(database);
        alice = api.newUser();
    }

    // ------------------------------------------------------------------ helpers

    /** A user with one device (device_sn 1) bound to the channel; returns the user id. */
    private long userOn(String channel) {
        long user = api.newUser();
        String pushToken = api.newDevice(user, 1);
        api.bindToken(pushToken, channel, channel + "-token-" + user);
        return user;
    }

    private MessageEvent direct(long msgId, long sender, String text, Recipient... recipients) {
        return new MessageEvent(1, MessageEvent.CREATED, api.appId, msgId, MessageEvent.DIRECT, sender, 1, null, null,
                0, text, null, List.of(), false, List.of(recipients), System.currentTimeMillis(),
                System.currentTimeMillis(), null);
    }

    private MessageEvent group(long msgId, long groupId, long sender, List<Long> mentions, Recipient... recipients) {
        return new MessageEvent(1, MessageEvent.CREATED, api.appId, msgId, MessageEvent.GROUP, sender, 1, groupId,
                "friends", 1, null, null, mentions, false, List.of(recipients), System.currentTimeMillis(),
                System.currentTimeMillis(), null);
    }

    /** The recall of a message announced before, as message-service's publisher announces it. */
    private static MessageEvent recall(MessageEvent message, long noticeId, Recipient... recipients) {
        return new MessageEvent(1, MessageEvent.RECALLED, message.appId(), message.msgId(), message.kind(),
                message.senderId(), message.senderDeviceSn(), message.groupId(), message.groupName(),
                message.contentType(), null, null, message.mentions(), false, List.of(recipients), message.createdMs(),
                System.currentTimeMillis(), noticeId);
    }

    /** The message's trace rows of these users set {@code sent}, as push-worker's finish leaves them. */
    private void sent(long msgId, long... userIds) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update offline_push_trace set state = 'sent'"
                    + " where app_id = ? and msg_id = ? and user_id = any(?)")) {
                ps.setString(1, api.appId);
                ps.setLong(2, msgId);
                ps.setArray(3, Database.bigints(c, userIds));
                return ps.executeUpdate();
            }
        });
    }

    private void publish(MessageEvent event) throws Exception {
        TopicWriter.send(MessageEvent.TOPIC, api.appId + ":1", mapper.writeValueAsString(event));
    }

    /** The message's trace as {user_id:device_sn -> decision/state[/channel]}, once it has {@code rows} rows. */
    private Map<String, String> trace(long msgId, int rows) {
        Map<String, String> found = new HashMap<>();
        Eventually.until(WAIT, rows + " trace rows of message " + msgId, () -> {
            found.clear();
            for (OfflinePushTrace.DeviceTrace d : traces.of(api.appId, msgId).devices()) {
                found.put(d.userId() + ":" + d.deviceSn(), d.decision() + "/" + d.state()
                        + (d.channel() == null ? "" : "/" + d.channel()));
            }
            return found.size() >= rows;
        });
        return found;
    }

    /** The message's records on the channel's topic. */
    private List<JsonNode> records(String channel, long msgId, int expected, Duration wait) {
        return parsed(TopicReader.await("push." + channel, r -> isOf(msgId, r), expected, wait));
    }

    /**
     * The message's records on the channel's topic so far: for what must not be there, once the records of a later
     * event are ({@link #awaitRecordsOfEarlierEvents}).
     */
    private List<JsonNode> recordsSoFar(String channel, long msgId) {
        return parsed(TopicReader.readAll("push." + channel).stream().filter(r -> isOf(msgId, r)).toList());
    }

    /**
     * Publishes a message from alice to the recipient and waits for its record on the channel: the records of every
     * event published before it are written ({@link #publish} keeps the events in order on one partition, and the
     * feed writes one poll's records before it reads the next).
     */
    private void awaitRecordsOfEarlierEvents(long recipient, String channel) throws Exception {
        long marker = MSG_IDS.incrementAndGet();
        publish(direct(marker, alice, "marker", new Recipient(recipient, alice, 1, List.of())));
        records(channel, marker, 1, WAIT);
    }

    private boolean isOf(long msgId, ConsumerRecord<String, String> record) {
        return record.key().startsWith(api.appId + ":m" + msgId + ":");
    }

    private List<JsonNode> parsed(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> {
            try {
                return mapper.readTree(r.value());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    // ------------------------------------------------------------------ what it says

    @Test
    void offlineRecipientGetsSenderPreviewBadgeAndTheConversationToOpen() throws Exception {
        api.asAdmin().header("user_id", alice).body(Map.of("display_name", "Alice")).post("/user/push/settings")
                .then().body("code", equalTo(200)).body("data.display_name", equalTo("Alice"));
        long bob = userOn("vendor_b");
        long msgId = MSG_IDS.incrementAndGet();
        publish(direct(msgId, alice, "hi bob, dinner?", new Recipient(bob, alice, 3, List.of())));

        assertEquals(Map.of(bob + ":1", "offline_push/queued/vendor_b"), trace(msgId, 1));
        JsonNode record = records("vendor_b", msgId, 1, WAIT).get(0);
        assertEquals(0, record.path("task_id").asLong(), "no push task per message");
        assertEquals(msgId, record.path("offline").path("msg_id").asLong());
        assertEquals("u:" + alice, record.path("offline").path("conversation").asText());
        JsonNode message = record.path("message");
        assertEquals("Alice", message.path("title").asText());
        assertEquals("hi bob, dinner?", message.path("body").asText());
        long device = record.path("targets").get(0).path("device_id").asLong();
        assertEquals(3, message.path("badges").path(Long.toString(device)).asInt(), "the unread count, set");
        assertEquals(String.valueOf(alice), message.path("ext").path("conversation_id").asText());
        assertEquals(String.valueOf(msgId), message.path("ext").path("msg_id").asText());
        assertEquals("direct", message.path("ext").path("conversation_type").asText());
        assertEquals("u:" + alice, message.path("ios").path("thread_id").asText());
        assertEquals("im-u:" + alice, message.path("collapse_key").asText());
        assertTrue(message.path("notify_id").asInt() > 0);
        assertEquals("vendor_b-token-" + bob, record.path("targets").get(0).path("token").asText());
    }

    @Test
    void groupTitleIsTheGroupAndTheBodyNamesTheSenderInTheAppsLanguage() throws Exception {
        api.asAdmin().body(Map.of("language", "zh-CN")).post("/push/offline/settings")
                .then().body("code", equalTo(200)).body("data.language", equalTo("zh-CN"));
        api.asAdmin().header("user_id", alice).body(Map.of("display_name", "爱丽丝")).post("/user/push/settings")
                .then().body("code", equalTo(200));
        long bob = userOn("vendor_a");
        long dan = userOn("vendor_a");
        long carol = userOn("vendor_c");
        api.asAdmin().header("user_id", carol).body(Map.of("show_preview", false)).post("/user/push/settings")
                .then().body("code", equalTo(200));
        long groupId = 1_000_000_000_123L;
        long msgId = MSG_IDS.incrementAndGet();
        publish(group(msgId, groupId, alice, List.of(), new Recipient(bob, groupId, 4, List.of()),
                new Recipient(dan, groupId, 6, List.of()), new Recipient(carol, groupId, 1, List.of())));
        trace(msgId, 3);
        awaitRecordsOfEarlierEvents(bob, "vendor_a");
        List<JsonNode> toHuawei = recordsSoFar("vendor_a", msgId);
        assertEquals(1, toHuawei.size(), "bob and dan read the same notification: one record, one provider request");
        assertEquals(2, toHuawei.get(0).path("targets").size());
        JsonNode toBob = toHuawei.get(0).path("message");
        assertEquals("friends", toBob.path("title").asText());
        assertEquals("爱丽丝: [图片]", toBob.path("body").asText());
        List<Integer> badges = new java.util.ArrayList<>();
        toBob.path("badges").forEach(b -> badges.add(b.asInt()));
        assertEquals(List.of(4, 6), badges.stream().sorted().toList(), "each member's own unread count");
        JsonNode toCarol = records("vendor_c", msgId, 1, WAIT).get(0).path("message");
        assertEquals("新消息", toCarol.path("title").asText(), "preview off: neither sender nor content");
        assertEquals("你收到了一条新消息", toCarol.path("body").asText());
    }

    @Test
    void aGroupMessageToManyDevicesWithLongTokensIsCutIntoRecordsWithinTheBudget() throws Exception {
        long groupId = 1_000_000_000_789L;
        List<Long> devices = new java.util.ArrayList<>();
        List<Recipient> recipients = new java.util.ArrayList<>();
        for (int u = 0; u < 40; u++) {
            long member = api.newUser();
            devices.addAll(api.devicesWithLongTokens(member, 30, "vendor_a"));
            recipients.add(new Recipient(member, groupId, u + 1, List.of()));
        }
        long msgId = MSG_IDS.incrementAndGet();
        publish(group(msgId, groupId, alice, List.of(), recipients.toArray(Recipient[]::new)));

        trace(msgId, devices.size());
        // one notification text for all: 1200 targets of 1.6 kB, about 2 MB in one record before the cut
        List<String> values = new java.util.ArrayList<>();
        Eventually.until(WAIT, "records for all " + devices.size() + " devices", () -> {
            values.clear();
            TopicReader.readAll("push.vendor_a").stream()
                    .filter(r -> r.key().startsWith(api.appId + ":m" + msgId + ":")).forEach(r -> values.add(r.value()));
            int targets = 0;
            for (String value : values) {
                targets += mapper.readTree(value).path("targets").size();
            }
            return targets >= devices.size();
        });
        assertTrue(values.size() >= 3, "cut into records: " + values.size());
        int budget = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("im.push.fanout.record-max-bytes", Integer.class);
        List<Long> sent = new java.util.ArrayList<>();
        for (String value : values) {
            int bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            assertTrue(bytes <= budget, "a record of " + bytes + " bytes");
            JsonNode record = mapper.readTree(value);
            java.util.Set<String> targets = new java.util.TreeSet<>();
            record.path("targets").forEach(t -> {
                sent.add(t.path("device_id").asLong());
                targets.add(t.path("device_id").asText());
            });
            java.util.Set<String> badged = new java.util.TreeSet<>();
            record.path("message").path("badges").fieldNames().forEachRemaining(badged::add);
            assertEquals(targets, badged, "a record carries the badges of its own devices");
        }
        assertEquals(devices.size(), sent.size(), "no device twice");
        assertEquals(new java.util.TreeSet<>(devices), new java.util.TreeSet<>(sent), "every device");
    }

    // ------------------------------------------------------------------ who gets one

    @Test
    void eachDeviceIsDecidedByTheDocumentedRules() throws Exception {
        long groupId = 1_000_000_000_456L;
        long bob = api.newUser(); // phone live with a token, tablet without a token
        api.bindToken(api.newDevice(bob, 1), "ios", "ios-token-" + bob);
        api.newDevice(bob, 2);
        long carol = userOn("vendor_b"); // muted the group
        long dave = userOn("vendor_b"); // muted the group but is mentioned
        long erin = userOn("vendor_b"); // in her quiet hours
        long frank = userOn("vendor_b"); // opted out of push
        long gina = api.newUser(); // no device at all
        for (long user : List.of(carol, dave)) {
            api.asAdmin().header("user_id", user).body(Map.of("conversation_id", groupId)).post("/user/push/mute")
                    .then().body("code", equalTo(200)).body("data", equalTo(true));
        }
        LocalTime now = LocalTime.now(ZoneOffset.UTC);
        api.asAdmin().header("user_id", erin).body(Map.of("dnd_start", now.minusHours(1).toString().substring(0, 5),
                "dnd_end", now.plusHours(1).toString().substring(0, 5), "time_zone", "UTC"))
                .post("/user/push/settings").then().body("code", equalTo(200));
        api.optOut(frank);
        long msgId = MSG_IDS.incrementAndGet();
        publish(group(msgId, groupId, alice, List.of(dave), new Recipient(bob, groupId, 1, List.of(1)),
                new Recipient(carol, groupId, 1, List.of()), new Recipient(dave, groupId, 1, List.of()),
                new Recipient(erin, groupId, 1, List.of()), new Recipient(frank, groupId, 1, List.of()),
                new Recipient(gina, groupId, 1, List.of())));

        Map<String, String> decided = trace(msgId, 7);
        assertEquals("live/decided/ios", decided.get(bob + ":1"));
        assertEquals("no_token/decided", decided.get(bob + ":2"));
        assertEquals("muted/decided/vendor_b", decided.get(carol + ":1"));
        assertEquals("offline_push/queued/vendor_b", decided.get(dave + ":1"), "a mention breaks through the mute");
        assertEquals("do_not_disturb/decided/vendor_b", decided.get(erin + ":1"));
        assertEquals("user_opted_out/decided/vendor_b", decided.get(frank + ":1"));
        assertEquals("no_device/decided", decided.get(gina + ":0"));
        assertEquals(List.of(0L, 1L), database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select (select count(*) from offline_push_trace"
                    + " where app_id = ? and msg_id = ? and device_sn = 0), (select count(*)"
                    + " from offline_push_no_device where app_id = ? and msg_id = ?)")) {
                ps.setString(1, api.appId);
                ps.setLong(2, msgId);
                ps.setString(3, api.appId);
                ps.setLong(4, msgId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return List.of(rs.getLong(1), rs.getLong(2));
                }
            }
        }), "the recipients without a device are one row of the message, not a trace row each");
        List<JsonNode> sent = records("vendor_b", msgId, 1, WAIT);
        assertTrue(sent.get(0).path("message").path("body").asText().startsWith("[Mentioned you] "));

        // the live phone did not acknowledge within the window: message-service announces it again
        MessageEvent created = group(msgId, groupId, alice, List.of(dave), new Recipient(bob, groupId, 1, List.of(1)));
        publish(created.withType(MessageEvent.UNACKNOWLEDGED, created.recipients()));
        Eventually.until(WAIT, "bob's phone re-decided", () -> "live_unacknowledged/queued/ios"
                .equals(trace(msgId, 7).get(bob + ":1")));
        assertEquals(1, records("ios", msgId, 1, WAIT).size());
        // the records of the announcement again are written, so the first announcement's were before them
        assertEquals(1, recordsSoFar("ios", msgId).size(), "the live phone got no OS notification the first time");
        assertEquals(1, recordsSoFar("vendor_b", msgId).size(), "only dave's device is notified on vendor_b");
    }

    @Test
    void theSendersOptOutAndTheAppsSwitchStopIt() throws Exception {
        long bob = userOn("vendor_b");
        long msgId = MSG_IDS.incrementAndGet();
        MessageEvent quiet = new MessageEvent(1, MessageEvent.CREATED, api.appId, msgId, MessageEvent.DIRECT, alice, 1,
                null, null, 0, "psst", new PushOptions(false, null, null), List.of(), false,
                List.of(new Recipient(bob, alice, 1, List.of())), 0, 0, null);
        publish(quiet);
        assertEquals(Map.of(bob + ":1", "sender_opted_out/decided/vendor_b"), trace(msgId, 1));

        api.asAdmin().body(Map.of("enabled", false)).post("/push/offline/settings")
                .then().body("code", equalTo(200)).body("data.enabled", equalTo(false));
        long off = MSG_IDS.incrementAndGet();
        publish(direct(off, alice, "nobody hears", new Recipient(bob, alice, 1, List.of())));
        long later = MSG_IDS.incrementAndGet();
        api.asAdmin().body(Map.of("enabled", true)).post("/push/offline/settings").then().body("code", equalTo(200));
        publish(direct(later, alice, "heard", new Recipient(bob, alice, 1, List.of())));
        trace(later, 1); // the later event is applied, so the earlier one was too (same partition, in order)
        assertTrue(trace(off, 0).isEmpty(), "offline push off: nothing decided, nothing traced");
        records("vendor_b", later, 1, WAIT);
        assertEquals(List.of(), recordsSoFar("vendor_b", off), "offline push off: nothing sent");
    }

    @Test
    void aRecallReplacesTheShownNotificationAndNeverSendsAQueuedOne() throws Exception {
        long bob = userOn("vendor_b"); // was notified: gets the replacement
        long carol = userOn("vendor_c"); // not notified yet: gets nothing at all
        long dave = userOn("vendor_d"); // notified, then notified of a newer message: nothing to replace
        long groupId = 1_000_000_000_000L + MSG_IDS.incrementAndGet() % 1_000_000;
        MessageEvent message = group(MSG_IDS.incrementAndGet(), groupId, alice, List.of(),
                new Recipient(bob, groupId, 2, List.of()), new Recipient(carol, groupId, 2, List.of()),
                new Recipient(dave, groupId, 2, List.of()));
        publish(message);
        trace(message.msgId(), 3);
        sent(message.msgId(), bob, dave);
        MessageEvent newer = group(MSG_IDS.incrementAndGet(), groupId, alice, List.of(),
                new Recipient(dave, groupId, 3, List.of()));
        publish(newer);
        trace(newer.msgId(), 1);

        long noticeId = MSG_IDS.incrementAndGet();
        publish(recall(message, noticeId, new Recipient(bob, groupId, 1, List.of()),
                new Recipient(carol, groupId, 1, List.of()), new Recipient(dave, groupId, 2, List.of())));
        assertEquals(Map.of(bob + ":1", "recalled/queued/vendor_b"), trace(noticeId, 1),
                "only the device that shows the message gets its replacement");
        assertEquals(Map.of(bob + ":1", "offline_push/sent/vendor_b", carol + ":1", "offline_push/superseded/vendor_c",
                dave + ":1", "offline_push/sent/vendor_d"), trace(message.msgId(), 3),
                "the queued notification is superseded in the replacement's transaction: never sent");
        JsonNode record = records("vendor_b", noticeId, 1, WAIT).get(0);
        assertEquals(noticeId, record.path("offline").path("msg_id").asLong(), "claimed by its own id");
        JsonNode replacement = record.path("message");
        assertEquals("friends", replacement.path("title").asText());
        assertEquals("A message was recalled", replacement.path("body").asText());
        assertEquals("im-g:" + groupId, replacement.path("collapse_key").asText(), "the conversation's key");
        assertEquals(String.valueOf(message.msgId()), replacement.path("ext").path("msg_id").asText());
        long device = record.path("targets").get(0).path("device_id").asLong();
        assertEquals(1, replacement.path("badges").path(Long.toString(device)).asInt(), "the count without it");
    }

    @Test
    void aRedeliveredEventDecidesNothingNew() throws Exception {
        long bob = userOn("vendor_b");
        long msgId = MSG_IDS.incrementAndGet();
        MessageEvent event = direct(msgId, alice, "once", new Recipient(bob, alice, 1, List.of()));
        publish(event);
        trace(msgId, 1);
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update offline_push_trace set state = 'sent'"
                    + " where app_id = ? and msg_id = ?")) {
                ps.setString(1, api.appId);
                ps.setLong(2, msgId);
                return ps.executeUpdate();
            }
        });
        publish(event);
        awaitRecordsOfEarlierEvents(bob, "vendor_b");
        assertEquals(Map.of(bob + ":1", "offline_push/sent/vendor_b"), trace(msgId, 1), "the sent row stays sent");
        assertEquals(1, recordsSoFar("vendor_b", msgId).size(), "a sent device is not written again");
    }

    @Test
    void quietHoursWrapPastMidnightInTheUsersZone() {
        UserSettings night = new UserSettings(null, true, 22 * 60, 7 * 60, "Asia/Shanghai");
        assertTrue(OfflinePushPlanner.quietHours(night, Instant.parse("2026-11-28T15:30:00Z")), "23:30 in Shanghai");
        assertTrue(OfflinePushPlanner.quietHours(night, Instant.parse("2026-11-28T22:00:00Z")), "06:00 in Shanghai");
        assertFalse(OfflinePushPlanner.quietHours(night, Instant.parse("2026-11-28T04:00:00Z")), "12:00 in Shanghai");
        assertFalse(OfflinePushPlanner.quietHours(UserSettings.DEFAULT, Instant.now()), "no quiet hours set");
    }

    // ------------------------------------------------------------------ the endpoints' input

    @Test
    void badSettingsAreRefusedNamingTheField() {
        api.asAdmin().body(Map.of("language", "fr")).post("/push/offline/settings")
                .then().body("code", equalTo(10002)).body("message", startsWith("language:"));
        long bob = api.newUser();
        Map<String, Map<String, Object>> bad = Map.of(
                "dnd_start", Map.of("dnd_start", "25:00", "dnd_end", "07:00"),
                "dnd_end", Map.of("dnd_start", "22:00"),
                "time_zone", Map.of("time_zone", "Mars/Olympus"),
                "display_name", Map.of("display_name", "x".repeat(65)));
        bad.forEach((field, body) -> api.as(bob).body(body).post("/user/push/settings")
                .then().body("code", equalTo(10002)).body("message", startsWith(field + ":")));
        api.as(bob).body(Map.of("mute", true)).post("/user/push/mute")
                .then().body("code", equalTo(10002)).body("message", startsWith("conversation_id:"));
        api.as(bob).body(Map.of("conversation_id", alice)).post("/user/push/mute").then().body("code", equalTo(200));
        assertEquals(List.of(alice), api.as(bob).get("/user/push/mute").then().extract().jsonPath()
                .getList("data", Long.class));
        api.asAdmin().get("/push/offline/trace?msg_id=abc").then().body("code", equalTo(10002));
        api.asAdmin().get("/push/offline/stats?days=0").then().body("code", equalTo(10002));
        api.as(bob).get("/push/offline/trace?msg_id=1").then().body("code", equalTo(10010));
    }
}

package io.imcore.push.receipt;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * POST /push/receipt/<channel>/<app_id>: a provider's callback, authenticated by the app's receipt key, counts each
 * device the task was sent to once into received, within that app only.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class ReceiptEndpointTest {

    @Inject
    Database database;

    @Inject
    ReceiptKeyStore keys;

    private final String appId = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private String key;

    @BeforeEach
    void appKey() {
        key = keys.getOrCreate(appId);
    }

    private long insert(String sql, Object... parameters) {
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    ps.setObject(i + 1, parameters[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0L;
                }
            }
        });
    }

    private long task() {
        return insert("insert into push_tasks (app_id, state, request) values (?, 'dispatching', '{}'::jsonb)"
                + " returning task_id", appId);
    }

    /** A device of the app with the token on Xiaomi, to which push-worker sent the task (its ledger row). */
    private long sentDevice(long task, String token) {
        long device = deviceWithToken(token);
        insert("insert into push_receipts (task_id, device_id, channel, received) values (?, ?, 'vendor_b', false)"
                + " returning task_id", task, device);
        return device;
    }

    private long deviceWithToken(String token) {
        long device = insert("insert into push_devices (app_id, user_id, device_sn) values (?, ?, 1)"
                + " returning device_id", appId, Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000L));
        insert("insert into push_device_tokens (device_id, channel, app_id, token, notifier_name, environment)"
                + " values (?, 'vendor_b', ?, ?, 'mi', 1) returning device_id", device, appId, token);
        return device;
    }

    private int received(long task) {
        return (int) insert("select coalesce(sum(received), 0) from push_task_counts where task_id = ?"
                + " and channel = 'vendor_b'", task);
    }

    private String xiaomiCallback(long task, String targets) {
        String json = "{\"msg1\":{\"param\":\"" + task + "\",\"type\":1,\"targets\":\"" + targets + "\"}}";
        return "data=" + URLEncoder.encode(json, StandardCharsets.UTF_8);
    }

    private io.restassured.response.ValidatableResponse post(String channel, String key, String body) {
        return post(channel, appId, key, body);
    }

    private io.restassured.response.ValidatableResponse post(String channel, String app, String key, String body) {
        return given().contentType("application/x-www-form-urlencoded").body(body)
                .post("/push/receipt/" + channel + "/" + app + (key == null ? "" : "?key=" + key))
                .then().statusCode(200);
    }

    @Test
    void eachDeliveredDeviceCountsOnceHoweverOftenTheProviderCalls() {
        long task = task();
        String a = "rega-" + UUID.randomUUID();
        String b = "regb-" + UUID.randomUUID();
        sentDevice(task, a);
        sentDevice(task, b);
        post("vendor_b", key, xiaomiCallback(task, a + "," + b + ",unknown-token"))
                .body("code", equalTo(200)).body("data", equalTo(2));
        post("vendor_b", key, xiaomiCallback(task, a)).body("code", equalTo(200)).body("data", equalTo(0));
        assertEquals(2, received(task));
    }

    @Test
    void aReceiptForADeviceTheTaskWasNotSentToCountsNothingAndReceivedNeverExceedsSent() {
        long task = task();
        String sent = "regs-" + UUID.randomUUID();
        String notSent = "regn-" + UUID.randomUUID();
        sentDevice(task, sent);
        deviceWithToken(notSent); // the app's device, holding a token, but not a target of the task
        insert("insert into push_task_counts (task_id, channel, target, sent) values (?, 'vendor_b', 1, 1)"
                + " returning task_id", task);
        post("vendor_b", key, xiaomiCallback(task, notSent)).body("code", equalTo(200)).body("data", equalTo(0));
        post("vendor_b", key, xiaomiCallback(task, sent + "," + notSent)).body("data", equalTo(1));
        assertEquals(1, received(task), "received never exceeds sent");
        assertEquals(1, insert("select sent from push_task_counts where task_id = ? and channel = 'vendor_b'", task));
    }

    @Test
    void anotherAppsKeyIsRefusedAndItsReceiptsNeverReachThisApp() {
        long task = task();
        String token = "regc-" + UUID.randomUUID();
        sentDevice(task, token);
        String otherApp = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String otherKey = keys.getOrCreate(otherApp);
        // app B's key on app A's callback URL
        post("vendor_b", appId, otherKey, xiaomiCallback(task, token)).body("code", equalTo(10010));
        // app B's own URL and key, naming app A's task and device token
        post("vendor_b", otherApp, otherKey, xiaomiCallback(task, token)).body("code", equalTo(200))
                .body("data", equalTo(0));
        assertEquals(0, received(task));
        // a rotation refuses the old key at once
        String old = key;
        key = keys.rotate(appId);
        post("vendor_b", old, xiaomiCallback(task, token)).body("code", equalTo(10010));
        post("vendor_b", key, xiaomiCallback(task, token)).body("data", equalTo(1));
    }

    /** An offline push of message msgId sent to a new device with the token on Xiaomi: its trace row. */
    private void sentOfflinePush(long msgId, String token) {
        long user = Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000L);
        long device = insert("insert into push_devices (app_id, user_id, device_sn) values (?, ?, 1)"
                + " returning device_id", appId, user);
        insert("insert into push_device_tokens (device_id, channel, app_id, token, notifier_name, environment)"
                + " values (?, 'vendor_b', ?, ?, 'mi', 1) returning device_id", device, appId, token);
        insert("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id, conversation,"
                + " decision, channel, state, sent_at) values (?, ?, ?, 1, ?, 'u:9', 'offline_push', 'vendor_b',"
                + " 'sent', now()) returning msg_id", appId, msgId, user, device);
    }

    private void pushOn() {
        insert("insert into push_apps (app_id, push_enabled) values (?, true) on conflict do nothing"
                + " returning 1", appId);
    }

    private String receivedAt(long msgId, String token) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select t.received_at::text from offline_push_trace t"
                    + " join push_device_tokens k on k.device_id = t.device_id and k.channel = 'vendor_b'"
                    + " where t.app_id = ? and t.msg_id = ? and k.token = ?")) {
                ps.setString(1, appId);
                ps.setLong(2, msgId);
                ps.setString(3, token);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : "no row";
                }
            }
        });
    }

    private long offlineReceived() {
        return insert("select coalesce(sum(received), 0) from offline_push_daily where app_id = ?"
                + " and day = (now() at time zone 'UTC')::date and channel = 'vendor_b'", appId);
    }

    @Test
    void anOfflinePushReceiptMarksTheDeviceReceivedAndCountsItOnce() {
        pushOn();
        String a = "offa-" + UUID.randomUUID();
        String b = "offb-" + UUID.randomUUID();
        sentOfflinePush(41, a);
        sentOfflinePush(41, b);
        // the offline push's receipts carry -msg_id as the task id (push-worker's Notification.taskId)
        post("vendor_b", key, xiaomiCallback(-41, a)).body("code", equalTo(200)).body("data", equalTo(1));
        String first = receivedAt(41, a);
        assertNotNull(first, "received_at of the device the receipt names");
        assertNull(receivedAt(41, b), "the message's other device got no receipt");
        assertEquals(1, offlineReceived());
        assertEquals(0, insert("select count(*) from push_task_counts where task_id = -41"),
                "no task counter for an offline push");

        post("vendor_b", key, xiaomiCallback(-41, a)).body("code", equalTo(200)).body("data", equalTo(0));
        assertEquals(first, receivedAt(41, a), "only the first receipt counts");
        assertEquals(1, offlineReceived(), "a repeated receipt counts nothing");

        post("vendor_b", key, xiaomiCallback(-41, b + ",unknown-token")).body("data", equalTo(1));
        assertNotNull(receivedAt(41, b));
        assertEquals(2, offlineReceived());
    }

    @Test
    void aCallbackWithTaskAndOfflineReceiptsCountsEachWhereItBelongs() {
        pushOn();
        long task = task();
        String taskToken = "regt-" + UUID.randomUUID();
        sentDevice(task, taskToken);
        String offlineToken = "offc-" + UUID.randomUUID();
        sentOfflinePush(42, offlineToken);
        String json = "{\"m1\":{\"param\":\"" + task + "\",\"type\":1,\"targets\":\"" + taskToken + "\"},"
                + "\"m2\":{\"param\":\"-42\",\"type\":1,\"targets\":\"" + offlineToken + "\"},"
                + "\"m3\":{\"param\":\"-43\",\"type\":1,\"targets\":\"" + offlineToken + "\"}}";
        post("vendor_b", key, "data=" + URLEncoder.encode(json, StandardCharsets.UTF_8))
                .body("code", equalTo(200)).body("data", equalTo(2));
        assertEquals(1, received(task));
        assertNotNull(receivedAt(42, offlineToken));
        assertEquals(1, offlineReceived(), "message 43 has no trace row for the device: nothing");
    }

    @Test
    void parallelCallbacksShareStatementsAndCountEachDeviceOnce() throws Exception {
        pushOn();
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            tokens.add("offp-" + i + "-" + UUID.randomUUID());
            sentOfflinePush(45, tokens.get(i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            // every token twice, from different callbacks at once: each device counts once in all
            List<Future<Integer>> answers = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (String token : tokens) {
                    answers.add(pool.submit(() -> post("vendor_b", key, xiaomiCallback(-45, token))
                            .body("code", equalTo(200)).extract().path("data")));
                }
            }
            int counted = 0;
            for (Future<Integer> answer : answers) {
                counted += answer.get();
            }
            assertEquals(tokens.size(), counted, "the callbacks' answers add up to each device once");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(tokens.size(), offlineReceived());
        for (String token : tokens) {
            assertNotNull(receivedAt(45, token), token);
        }
    }

    @Test
    void anOfflinePushReceiptForAnotherAppsMessageCountsNothing() {
        pushOn();
        String token = "offd-" + UUID.randomUUID();
        sentOfflinePush(44, token);
        // the same message id in another app, whose device has another token
        post("vendor_b", key, xiaomiCallback(-44, "offd-other-" + UUID.randomUUID())).body("data", equalTo(0));
        assertNull(receivedAt(44, token));
        assertEquals(0, offlineReceived());
    }

    @Test
    void withoutTheKeyOrForAChannelWithoutReceiptsTheCallbackIsRefused() {
        long task = task();
        post("vendor_b", null, xiaomiCallback(task, "x")).body("code", equalTo(10010));
        post("vendor_b", "wrong", xiaomiCallback(task, "x")).body("code", equalTo(10010));
        post("vendor_b", "unknown-app", key, xiaomiCallback(task, "x")).body("code", equalTo(10010));
        post("ios", key, "{}").body("code", equalTo(10002)).body("message", startsWith("channel"));
        post("nope", key, "{}").body("code", equalTo(10002));
        post("vendor_b", key, "not a callback").body("code", equalTo(10002)).body("message", startsWith("body"));
    }
}

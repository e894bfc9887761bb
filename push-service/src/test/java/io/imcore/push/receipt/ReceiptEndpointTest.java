package io.imcore.push.receipt;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** POST /push/receipt/<channel>: a provider's callback counts each delivered device once into received. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class ReceiptEndpointTest {

    private static final String KEY = "test-receipt-key";

    @Inject
    Database database;

    private final String appId = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

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

    private void deviceWithToken(String token) {
        long device = insert("insert into push_devices (app_id, user_id, device_sn) values (?, ?, 1)"
                + " returning device_id", appId, Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000L));
        insert("insert into push_device_tokens (device_id, channel, app_id, token, notifier_name, environment)"
                + " values (?, 'vendor_b', ?, ?, 'mi', 1) returning device_id", device, appId, token);
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
        return given().contentType("application/x-www-form-urlencoded").body(body)
                .post("/push/receipt/" + channel + (key == null ? "" : "?key=" + key)).then().statusCode(200);
    }

    @Test
    void eachDeliveredDeviceCountsOnceHoweverOftenTheProviderCalls() {
        long task = task();
        String a = "rega-" + UUID.randomUUID();
        String b = "regb-" + UUID.randomUUID();
        deviceWithToken(a);
        deviceWithToken(b);
        post("vendor_b", KEY, xiaomiCallback(task, a + "," + b + ",unknown-token"))
                .body("code", equalTo(200)).body("data", equalTo(2));
        post("vendor_b", KEY, xiaomiCallback(task, a)).body("code", equalTo(200)).body("data", equalTo(0));
        assertEquals(2, received(task));
    }

    @Test
    void aReceiptForAnotherAppsTaskCountsNothing() {
        long task = task();
        String token = "regc-" + UUID.randomUUID();
        insert("insert into push_devices (app_id, user_id, device_sn) values ('other-app', 5, 1) returning device_id");
        deviceWithToken(token);
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update push_tasks set app_id = 'other-app'"
                    + " where task_id = ?")) {
                ps.setLong(1, task);
                ps.executeUpdate();
            }
            return null;
        });
        post("vendor_b", KEY, xiaomiCallback(task, token)).body("data", equalTo(0));
    }

    @Test
    void withoutTheKeyOrForAChannelWithoutReceiptsTheCallbackIsRefused() {
        long task = task();
        post("vendor_b", null, xiaomiCallback(task, "x")).body("code", equalTo(10010));
        post("vendor_b", "wrong", xiaomiCallback(task, "x")).body("code", equalTo(10010));
        post("ios", KEY, "{}").body("code", equalTo(10002)).body("message", startsWith("channel"));
        post("nope", KEY, "{}").body("code", equalTo(10002));
        post("vendor_b", KEY, "not a callback").body("code", equalTo(10002)).body("message", startsWith("body"));
    }
}

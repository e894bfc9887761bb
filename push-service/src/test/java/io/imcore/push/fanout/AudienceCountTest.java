package io.imcore.push.fanout;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.push.AppPerTest;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** POST /push/audience/count through HTTP, checked against what the running expander then targets. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class AudienceCountTest extends AppPerTest {

    private static final List<String> CHANNELS =
            List.of("ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e", "svcpush");

    @Test
    void theCountPerChannelIsWhatTheExpansionThenTargets() {
        long alice = api.newUser();
        long bob = api.newUser();
        String iphone = api.newDevice(alice, 1);
        api.bindToken(iphone, "ios", "apns-1");
        api.bindToken(iphone, "cloud", "fcm-ios"); // ios wins whatever the sequence
        String both = api.newDevice(alice, 2);
        api.bindToken(both, "vendor_a", "hms-1");
        api.bindToken(both, "cloud", "fcm-1");
        api.bindToken(api.newDevice(bob, 1), "cloud", "fcm-2");
        api.bindToken(api.newDevice(bob, 2), "vendor_b", "mi-1");
        api.setOnline(bob, 2);
        api.newDevice(bob, 3);
        api.setOnline(bob, 3); // online without a token: svcpush only
        api.newDevice(bob, 4); // no token, offline: unreachable
        long optedOut = api.newUser();
        api.bindToken(api.newDevice(optedOut, 1), "cloud", "fcm-3");
        api.optOut(optedOut);
        long disabled = api.newUser();
        api.bindToken(api.newDevice(disabled, 1), "cloud", "fcm-4");
        api.disable(disabled);

        for (String setting : List.of("{}", "{\"distribution_strategy\":\"svcpush_only\"}",
                "{\"distribution_strategy\":\"ospush_only\",\"ospush_sequence\":[\"cloud\",\"ups\"]}")) {
            String body = "{\"audience\":\"all\",\"setting\":" + setting + ",\"message\":{\"title\":\"t\"}}";
            JsonPath count = count(body);
            long task = notify(body);
            JsonPath detail = awaitFinished(task);
            assertEquals(6, count.getLong("data.devices"), setting);
            assertEquals(detail.getLong("data[0].progress.devices_expanded"), count.getLong("data.devices"), setting);
            Map<String, Integer> targets = new LinkedHashMap<>();
            CHANNELS.forEach(channel -> targets.put(channel, detail.getInt("data[0]." + channel + "_target")));
            assertEquals(targets, count.getMap("data.channels"), setting);
            assertEquals(targets.values().stream().mapToInt(Integer::intValue).sum(), count.getInt("data.targets"));
        }
        assertEquals(Map.of("ios", 1, "cloud", 1, "vendor_a", 1, "vendor_b", 0, "vendor_c", 0, "vendor_d", 0,
                "vendor_e", 0, "svcpush", 2), count("{\"audience\":\"all\"}").getMap("data.channels"),
                "combined: online devices on svcpush; vendor_a before cloud in the default sequence");
    }

    @Test
    void eachAudienceFormCountsItsDevicesOnly() {
        long alice = api.newUser();
        long bob = api.newUser();
        String a1 = api.newDevice(alice, 1);
        api.bindToken(a1, "vendor_c", "oppo-1");
        String a2 = api.newDevice(alice, 2);
        api.bindToken(a2, "vendor_d", "vivo-1");
        String b1 = api.newDevice(bob, 1);
        api.bindToken(b1, "vendor_e", "meizu-1");
        api.tag(alice, "vip");
        api.alias(b1, "bobby");

        assertEquals(2, devices("{\"tag\":[\"vip\",\"nobody\"]}"));
        assertEquals(1, devices("{\"alias\":[\"bobby\"]}"));
        assertEquals(3, devices("{\"user_id\":[" + alice + "," + bob + ",999999]}"));
        assertEquals(2, devices("{\"push_token\":[\"" + a2 + "\",\"" + b1 + "\"]}"));
        assertEquals(Map.of("vendor_c", 1, "vendor_d", 1), nonZero(count(
                "{\"audience\":{\"tag\":[\"vip\"]}}").getMap("data.channels")));
    }

    @Test
    void anAppCountsOnlyItsOwnDevices() {
        api.bindToken(api.newDevice(api.newUser(), 1), "ios", "apns-mine");
        PushApi other = PushApi.newApp(database);
        long stranger = other.newUser();
        String theirs = other.newDevice(stranger, 1);
        other.bindToken(theirs, "ios", "apns-theirs");

        assertEquals(1, count("{\"audience\":\"all\"}").getInt("data.channels.ios"));
        assertEquals(0, devices("{\"user_id\":[" + stranger + "]}"));
        assertEquals(0, devices("{\"push_token\":[\"" + theirs + "\"]}"));
    }

    @Test
    void badInputIsRefusedWithTheCodesOfNotify() {
        refused("{\"audience\":\"ALL\"}", 10002, "audience");
        refused("{}", 10002, "audience");
        refused("[1]", 10002, "body");
        refused("{\"audience\":{\"group\":[1]}}", 10002, "audience.group");
        refused("{\"audience\":{\"user_id\":[0]}}", 10002, "audience.user_id[0]");
        refused("{\"audience\":\"all\",\"setting\":{\"distribution_strategy\":\"fast\"}}", 10002,
                "setting.distribution_strategy");
        refused("{\"audience\":\"all\",\"setting\":{\"ospush_sequence\":[\"ios\"]}}", 10002,
                "setting.ospush_sequence[0]");
        String tooMany = IntStream.rangeClosed(1, 501).mapToObj(Integer::toString).collect(Collectors.joining(","));
        refused("{\"audience\":{\"user_id\":[" + tooMany + "]}}", 12005, "audience.user_id");
        long user = api.newUser();
        api.as(user).body("{\"audience\":\"all\"}").post("/push/audience/count").then().statusCode(200)
                .body("code", equalTo(10010));
    }

    @Test
    void anAppOverItsCountQuotaGets10015() {
        given().header("platform-key", "test-platform-key").header("app_id", api.appId).contentType(ContentType.JSON)
                .body(Map.of("quota", "push-audience-count", "limit", 1, "period_seconds", 60, "burst", 2))
                .put("/push/quota").then().statusCode(200).body("code", equalTo(200));
        List<Integer> codes = IntStream.range(0, 3).mapToObj(i -> api.asAdmin().body("{\"audience\":\"all\"}")
                .post("/push/audience/count").jsonPath().getInt("code")).toList();
        assertEquals(List.of(200, 200, 10015), codes);
    }

    private void refused(String body, int code, String field) {
        api.asAdmin().body(body).post("/push/audience/count").then().statusCode(200)
                .body("code", equalTo(code)).body("message", startsWith(field + ":")).body("data", equalTo(null));
    }

    private JsonPath count(String body) {
        JsonPath answer = JsonPath.from(api.asAdmin().body(body).post("/push/audience/count").then().statusCode(200)
                .extract().asString());
        assertEquals(200, answer.getInt("code"), answer.prettify());
        return answer;
    }

    private long devices(String audience) {
        return count("{\"audience\":" + audience + "}").getLong("data.devices");
    }

    private static Map<String, Integer> nonZero(Map<String, Integer> channels) {
        return channels.entrySet().stream().filter(e -> e.getValue() != 0)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private long notify(String body) {
        JsonPath answer = JsonPath.from(api.asAdmin().body(body).post("/push/notify").then().statusCode(200)
                .extract().asString());
        assertEquals(200, answer.getInt("code"), answer.prettify());
        return answer.getLong("data.task_id");
    }

    private JsonPath awaitFinished(long task) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        JsonPath detail;
        do {
            detail = JsonPath.from(api.asAdmin().body("{\"list\":[" + task + "]}").post("/push/task/detail")
                    .then().statusCode(200).extract().asString());
            if (List.of("dispatching", "done").contains(detail.getString("data[0].state"))) {
                return detail;
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("task " + task + " not expanded in time: " + detail.prettify());
    }
}

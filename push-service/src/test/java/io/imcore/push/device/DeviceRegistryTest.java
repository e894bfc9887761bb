package io.imcore.push.device;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The device registry endpoints (docs/push-devices.md): token binding, tags, alias and the user's opt-out. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class DeviceRegistryTest {

    private static final int IOS = 1;
    private static final int CLOUD = 7;

    @Inject
    Database database;

    PushApi api;
    long alice;
    long bob;
    String alicePhone;

    @BeforeEach
    void setUp() {
        api = PushApi.newApp(database);
        alice = api.newUser();
        bob = api.newUser();
        alicePhone = api.newDevice(alice, 1);
        insertCertificate(database, api.appId, "apns-prod", IOS, 1);
        insertCertificate(database, api.appId, "fcm", CLOUD, 0);
    }

    // ---------------------------------------------------------------- bind and unbind

    @Test
    void bindStoresTheTokenOnTheCertificatesChannelAndEnvironment() {
        ok(bind(api.as(alice), 1, "apns-token-1", "apns-prod").post("/user/token/bind")).body("data", equalTo(true));
        assertEquals(Map.of("ios", "apns-token-1 apns-prod 1"), tokensOf(alicePhone));
    }

    @Test
    void rebindingReplacesTheTokenOfThatChannelOnly() {
        ok(bind(api.as(alice), 1, "apns-old", "apns-prod").post("/user/token/bind"));
        ok(bind(api.as(alice), 1, "fcm-1", "fcm").put("/user/token/bind"));
        ok(bind(api.as(alice), 1, "apns-new", "apns-prod").put("/user/token/bind"));
        assertEquals(Map.of("ios", "apns-new apns-prod 1", "cloud", "fcm-1 fcm 0"), tokensOf(alicePhone));
    }

    @Test
    void bindingATokenToAnotherDeviceTakesItFromThePreviousOne() {
        String aliceTablet = api.newDevice(alice, 2);
        String bobPhone = api.newDevice(bob, 1);
        ok(bind(api.as(alice), 1, "shared-phone", "apns-prod").post("/user/token/bind"));
        ok(bind(api.as(alice), 1, "fcm-a", "fcm").post("/user/token/bind"));

        ok(bind(api.as(alice), 2, "shared-phone", "apns-prod").post("/user/token/bind"));
        assertEquals(Map.of("cloud", "fcm-a fcm 0"), tokensOf(alicePhone), "other channels stay");
        assertEquals(Map.of("ios", "shared-phone apns-prod 1"), tokensOf(aliceTablet));

        // the phone switches accounts: the old user's pushes must not reach it
        ok(bind(api.as(bob), 1, "shared-phone", "apns-prod").post("/user/token/bind"));
        assertEquals(Map.of(), tokensOf(aliceTablet));
        assertEquals(Map.of("ios", "shared-phone apns-prod 1"), tokensOf(bobPhone));
    }

    @Test
    void theSameTokenTextOnAnotherChannelIsAnotherToken() {
        String aliceTablet = api.newDevice(alice, 2);
        ok(bind(api.as(alice), 1, "same-text", "apns-prod").post("/user/token/bind"));
        ok(bind(api.as(alice), 2, "same-text", "fcm").post("/user/token/bind"));
        assertEquals(Map.of("ios", "same-text apns-prod 1"), tokensOf(alicePhone));
        assertEquals(Map.of("cloud", "same-text fcm 0"), tokensOf(aliceTablet));
    }

    @Test
    void unbindRemovesEveryTokenOfTheDeviceAndIsIdempotent() {
        String aliceTablet = api.newDevice(alice, 2);
        ok(bind(api.as(alice), 1, "apns-1", "apns-prod").post("/user/token/bind"));
        ok(bind(api.as(alice), 1, "fcm-1", "fcm").post("/user/token/bind"));
        ok(bind(api.as(alice), 2, "apns-2", "apns-prod").post("/user/token/bind"));

        ok(api.as(alice).body(Map.of("device_sn", 1)).post("/user/token/unbind")).body("data", equalTo(true));
        assertEquals(Map.of(), tokensOf(alicePhone));
        assertEquals(Map.of("ios", "apns-2 apns-prod 1"), tokensOf(aliceTablet), "the other device keeps its token");
        ok(api.as(alice).body(Map.of("device_sn", 1)).delete("/user/token/unbind")).body("data", equalTo(true));
        ok(api.as(alice).body(Map.of("device_sn", 9)).post("/user/token/unbind")).body("data", equalTo(true));

        ok(api.as(alice).body(Map.of("device_sn", 2)).delete("/user/token/unbind"));
        assertEquals(Map.of(), tokensOf(aliceTablet));
    }

    @Test
    void unbindTouchesOnlyTheCallersDevice() {
        String bobPhone = api.newDevice(bob, 1);
        ok(bind(api.as(bob), 1, "bob-apns", "apns-prod").post("/user/token/bind"));
        ok(api.as(alice).body(Map.of("device_sn", 1)).post("/user/token/unbind"));
        assertEquals(Map.of("ios", "bob-apns apns-prod 1"), tokensOf(bobPhone));
    }

    @Test
    void anUnknownNotifierNameIsRefused() {
        PushApi other = PushApi.newApp(database);
        insertCertificate(database, other.appId, "other-apps-cert", IOS, 1);
        fails(bind(api.as(alice), 1, "t", "no-such-cert").post("/user/token/bind"), "notifier_name");
        fails(bind(api.as(alice), 1, "t", "other-apps-cert").post("/user/token/bind"), "notifier_name");
        assertEquals(Map.of(), tokensOf(alicePhone));
    }

    @Test
    void aDeviceOfAnotherUserOrNoDeviceIsRefused() {
        api.newDevice(bob, 2);
        fails(bind(api.as(alice), 2, "t", "apns-prod").post("/user/token/bind"), "device_sn");
        fails(bind(api.as(alice), 5, "t", "apns-prod").post("/user/token/bind"), "device_sn");
        // a token of the caller's device 1 does not vouch for device 5
        fails(bind(api.as(alice, 1), 5, "t", "apns-prod").post("/user/token/bind"), "device_sn");
        assertNull(deviceRow(alice, 5));
    }

    @Test
    void theDeviceTheTokenNamesIsCreatedAheadOfItsEvent() {
        ok(bind(api.as(alice, 4), 4, "early-apns", "apns-prod").post("/user/token/bind")).body("data", equalTo(true));
        DeviceRow row = deviceRow(alice, 4);
        assertNull(row.pushToken(), "the device.registered event fills push_token later");
        assertEquals(Map.of("ios", "early-apns apns-prod 1"), tokensOf(row.deviceId()));
        // binding again from the same token finds the row
        ok(bind(api.as(alice, 4), 4, "early-fcm", "fcm").post("/user/token/bind"));
        assertEquals(2, tokensOf(row.deviceId()).size());
    }

    @Test
    void anAdminActsAsTheUserOfTheUserIdHeader() {
        ok(bind(api.asAdmin().header("user_id", alice), 1, "by-admin", "apns-prod").post("/user/token/bind"));
        assertEquals(Map.of("ios", "by-admin apns-prod 1"), tokensOf(alicePhone));
        // an admin's token names no device: nothing is created ahead of an event
        fails(bind(api.asAdmin().header("user_id", alice), 3, "t", "apns-prod").post("/user/token/bind"), "device_sn");
        ok(api.asAdmin().header("user_id", alice).body(Map.of("tags", List.of("vip"))).post("/user/push/tag"))
                .body("data", equalTo(List.of("vip")));
        ok(api.as(alice).get("/user/push/tag")).body("data", equalTo(List.of("vip")));
        ok(api.asAdmin().header("user_id", alice).body(Map.of("alias", "al", "push_token", alicePhone))
                .post("/user/push/alias"));
        ok(api.asAdmin().header("user_id", alice).queryParam("value", true).post("/user/push"));
        ok(api.as(alice).get("/user/push")).body("data.push_disabled", equalTo(true));
        ok(api.asAdmin().header("user_id", alice).body(Map.of("device_sn", 1)).delete("/user/token/unbind"));
        assertEquals(Map.of(), tokensOf(alicePhone));

        fails(bind(api.asAdmin(), 1, "t", "apns-prod").post("/user/token/bind"), "user_id");
        fails(api.asAdmin().get("/user/push/tag"), "user_id");
        fails(api.asAdmin().queryParam("value", true).post("/user/push"), "user_id");
    }

    @Test
    void bindRefusesBadInput() {
        fails(api.as(alice).body("{").post("/user/token/bind"), "body");
        fails(api.as(alice).body("").post("/user/token/bind"), "body");
        fails(api.as(alice).body("[]").post("/user/token/bind"), "body");
        fails(api.as(alice).body("null").put("/user/token/bind"), "body");
        fails(api.as(alice).body(Map.of("device_token", "t", "notifier_name", "fcm")).post("/user/token/bind"),
                "device_sn");
        fails(bind(api.as(alice), "1", "t", "fcm").post("/user/token/bind"), "device_sn");
        fails(bind(api.as(alice), 1.5, "t", "fcm").post("/user/token/bind"), "device_sn");
        fails(bind(api.as(alice), 0, "t", "fcm").post("/user/token/bind"), "device_sn");
        fails(bind(api.as(alice), -1, "t", "fcm").post("/user/token/bind"), "device_sn");
        fails(bind(api.as(alice), 1L << 40, "t", "fcm").post("/user/token/bind"), "device_sn");
        fails(api.as(alice).body(Map.of("device_sn", 1, "notifier_name", "fcm")).post("/user/token/bind"),
                "device_token");
        fails(bind(api.as(alice), 1, "", "fcm").post("/user/token/bind"), "device_token");
        fails(bind(api.as(alice), 1, 12, "fcm").post("/user/token/bind"), "device_token");
        fails(bind(api.as(alice), 1, "x".repeat(513), "fcm").post("/user/token/bind"), "device_token");
        fails(bind(api.as(alice), 1, "a\u0000b", "fcm").post("/user/token/bind"), "device_token");
        fails(api.as(alice).body(Map.of("device_sn", 1, "device_token", "t")).post("/user/token/bind"),
                "notifier_name");
        fails(bind(api.as(alice), 1, "t", "").post("/user/token/bind"), "notifier_name");
        fails(bind(api.as(alice), 1, "t", List.of("fcm")).post("/user/token/bind"), "notifier_name");
        fails(bind(api.as(alice), 1, "t", "f\u0000").post("/user/token/bind"), "notifier_name");
        assertEquals(Map.of(), tokensOf(alicePhone));

        ok(bind(api.as(alice), 1, "x".repeat(512), "fcm").post("/user/token/bind"));
    }

    @Test
    void unbindRefusesBadInput() {
        fails(api.as(alice).body("{").post("/user/token/unbind"), "body");
        fails(api.as(alice).body("").delete("/user/token/unbind"), "body");
        fails(api.as(alice).body(Map.of()).post("/user/token/unbind"), "device_sn");
        fails(api.as(alice).body(Map.of("device_sn", "1")).post("/user/token/unbind"), "device_sn");
        fails(api.as(alice).body(Map.of("device_sn", 0)).delete("/user/token/unbind"), "device_sn");
    }

    // ---------------------------------------------------------------- token list

    @Test
    void tokenListShowsEachBoundTokenMaskedToItsHeadAndTail() {
        long before = System.currentTimeMillis();
        api.newDevice(alice, 2);
        ok(bind(api.as(alice), 1, "apns0123456789abcdef0123456789WXYZ", "apns-prod").post("/user/token/bind"));
        ok(bind(api.as(alice), 1, "fcm-short", "fcm").post("/user/token/bind"));
        ok(bind(api.as(alice), 2, "fcmABC_the_middle_is_hidden_9876", "fcm").post("/user/token/bind"));
        api.newDevice(bob, 1);
        ok(bind(api.as(bob), 1, "bobs-token-not-alices-list", "fcm").post("/user/token/bind"));

        ValidatableResponse list = ok(api.as(alice).get("/user/token/list"));
        list.body("data.list.size()", equalTo(3))
                .body("data.list.device_sn", equalTo(List.of(1, 1, 2)))
                .body("data.list.channel", equalTo(List.of("cloud", "ios", "cloud")))
                .body("data.list.notifier_name", equalTo(List.of("fcm", "apns-prod", "fcm")))
                .body("data.list.device_token_masked",
                        equalTo(List.of("****", "apns01****WXYZ", "fcmABC****9876")));
        long boundAt = list.extract().jsonPath().getLong("data.list[0].bound_at");
        assertTrue(boundAt >= before - 5_000 && boundAt <= System.currentTimeMillis() + 5_000,
                "bound_at in epoch ms: " + boundAt);
        ok(api.asAdmin().header("user_id", alice).get("/user/token/list"))
                .body("data.list.device_token_masked", equalTo(List.of("****", "apns01****WXYZ", "fcmABC****9876")));
        ok(api.as(bob).get("/user/token/list")).body("data.list.device_sn", equalTo(List.of(1)));
        // acting as a user nobody registered is refused before the list is read, as on every acting-as route
        api.asAdmin().header("user_id", 999_999_999L).get("/user/token/list").then().statusCode(200)
                .body("code", equalTo(10000)).body("data", nullValue());
    }

    @Test
    void tokenListRefusesAUserTokenNamingAUserAndAnAdminNamingNone() {
        api.as(alice).header("user_id", bob).get("/user/token/list").then().statusCode(200)
                .body("code", equalTo(10010)).body("data", nullValue());
        fails(api.asAdmin().get("/user/token/list"), "user_id");
        fails(api.asAdmin().header("user_id", "abc").get("/user/token/list"), "user_id");
    }

    // ---------------------------------------------------------------- tags

    @Test
    void tagsAreAddedAndRemovedAndReturnedSorted() {
        ok(api.as(alice).get("/user/push/tag")).body("data", equalTo(List.of()));
        ok(api.as(alice).body(Map.of("tags", List.of("sports", "beta", "Zed", "beta"))).post("/user/push/tag"))
                .body("data", equalTo(List.of("Zed", "beta", "sports")));
        ok(api.as(alice).body(Map.of("tags", List.of("sports", "news"))).post("/user/push/tag"))
                .body("data", equalTo(List.of("Zed", "beta", "news", "sports")));
        ok(api.as(alice).body(Map.of("tags", List.of("beta", "never-had"))).delete("/user/push/tag"))
                .body("data", equalTo(List.of("Zed", "news", "sports")));
        ok(api.as(alice).get("/user/push/tag")).body("data", equalTo(List.of("Zed", "news", "sports")));
        ok(api.as(bob).get("/user/push/tag")).body("data", equalTo(List.of()));
    }

    /** PostgreSQL's "C" order is code-point order; Java's String order differs beyond the BMP (UTF-16 surrogates). */
    @Test
    void tagsAreSortedByCodePoint() {
        String fullwidth = "\uFF01wow";
        String emoji = new String(Character.toChars(0x1F600));
        ok(api.as(alice).body(Map.of("tags", List.of(emoji, fullwidth, "a"))).post("/user/push/tag"))
                .body("data", equalTo(List.of("a", fullwidth, emoji)));
    }

    @Test
    void aUserHoldsAtMostAThousandTags() {
        for (int call = 0; call < 10; call++) {
            int first = call * 100;
            ok(api.as(alice).body(Map.of("tags", tags(first, first + 100))).post("/user/push/tag"));
        }
        fails(api.as(alice).body(Map.of("tags", List.of("one-too-many"))).post("/user/push/tag"), "tags");
        // tags the user already has do not count twice
        ok(api.as(alice).body(Map.of("tags", List.of("tag-0", "tag-999"))).post("/user/push/tag"));
        List<String> held = api.as(alice).get("/user/push/tag").then().extract().path("data");
        assertEquals(1000, held.size());
        ok(api.as(alice).body(Map.of("tags", List.of("tag-0"))).delete("/user/push/tag"));
        ok(api.as(alice).body(Map.of("tags", List.of("one-more"))).post("/user/push/tag"));
    }

    @Test
    void tagsRefuseBadInput() {
        for (String method : List.of("POST", "DELETE")) {
            fails(api.as(alice).body("{").request(method, "/user/push/tag"), "body");
            fails(api.as(alice).body("").request(method, "/user/push/tag"), "body");
            fails(api.as(alice).body(Map.of()).request(method, "/user/push/tag"), "tags");
            fails(api.as(alice).body(Map.of("tags", List.of())).request(method, "/user/push/tag"), "tags");
            fails(api.as(alice).body(Map.of("tags", "vip")).request(method, "/user/push/tag"), "tags");
            fails(api.as(alice).body(Map.of("tags", tags(0, 101))).request(method, "/user/push/tag"), "tags");
            fails(api.as(alice).body(Map.of("tags", List.of("ok", ""))).request(method, "/user/push/tag"), "tags[1]");
            fails(api.as(alice).body(Map.of("tags", List.of("ok", 5))).request(method, "/user/push/tag"), "tags[1]");
            fails(api.as(alice).body("{\"tags\":[\"ok\",null]}").request(method, "/user/push/tag"), "tags[1]");
            fails(api.as(alice).body(Map.of("tags", List.of("x".repeat(129)))).request(method, "/user/push/tag"),
                    "tags[0]");
            fails(api.as(alice).body(Map.of("tags", List.of("a\u0000"))).request(method, "/user/push/tag"), "tags[0]");
        }
        ok(api.as(alice).get("/user/push/tag")).body("data", equalTo(List.of()));
        ok(api.as(alice).body(Map.of("tags", tags(0, 100))).post("/user/push/tag"));
        ok(api.as(alice).body(Map.of("tags", List.of("x".repeat(128)))).post("/user/push/tag"));
    }

    // ---------------------------------------------------------------- alias

    @Test
    void aliasIsSetSharedAndCleared() {
        String aliceTablet = api.newDevice(alice, 2);
        ok(api.as(alice).body(Map.of("alias", "alice-home", "push_token", alicePhone)).post("/user/push/alias"))
                .body("data", equalTo(true));
        ok(api.as(alice).body(Map.of("alias", "alice-home", "push_token", aliceTablet)).post("/user/push/alias"));
        assertEquals("alice-home", deviceRow(alice, 1).alias());
        assertEquals("alice-home", deviceRow(alice, 2).alias());

        ok(api.as(alice).body(Map.of("alias", "", "push_token", alicePhone)).post("/user/push/alias"));
        assertNull(deviceRow(alice, 1).alias());
        assertEquals("alice-home", deviceRow(alice, 2).alias());
        ok(api.as(alice).body(Map.of("alias", "x".repeat(128), "push_token", alicePhone)).post("/user/push/alias"));
    }

    @Test
    void aliasNeedsOneOfTheCallersDevices() {
        String bobPhone = api.newDevice(bob, 1);
        fails(api.as(alice).body(Map.of("alias", "mine", "push_token", bobPhone)).post("/user/push/alias"),
                "push_token");
        fails(api.as(alice).body(Map.of("alias", "mine", "push_token", "pt-unknown")).post("/user/push/alias"),
                "push_token");
        assertNull(deviceRow(bob, 1).alias());
    }

    @Test
    void aliasRefusesBadInput() {
        fails(api.as(alice).body("{").post("/user/push/alias"), "body");
        fails(api.as(alice).body("").post("/user/push/alias"), "body");
        fails(api.as(alice).body(Map.of("push_token", alicePhone)).post("/user/push/alias"), "alias");
        fails(api.as(alice).body(Map.of("alias", 7, "push_token", alicePhone)).post("/user/push/alias"), "alias");
        fails(api.as(alice).body(Map.of("alias", "x".repeat(129), "push_token", alicePhone)).post("/user/push/alias"),
                "alias");
        fails(api.as(alice).body(Map.of("alias", "a\u0000", "push_token", alicePhone)).post("/user/push/alias"),
                "alias");
        fails(api.as(alice).body(Map.of("alias", "a")).post("/user/push/alias"), "push_token");
        fails(api.as(alice).body(Map.of("alias", "a", "push_token", "")).post("/user/push/alias"), "push_token");
        fails(api.as(alice).body(Map.of("alias", "a", "push_token", 1)).post("/user/push/alias"), "push_token");
        assertNull(deviceRow(alice, 1).alias());
    }

    /** Binds of different tokens to one device and channel at once, and first opt-outs, each end in one row. */
    @Test
    void concurrentBindsAndFirstOptOutsAllSucceed() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 3; round++) {
                long user = api.newUser();
                String phone = api.newDevice(user, 1);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> calls = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String token = "race-" + round + "-" + i;
                    calls.add(pool.submit(() -> {
                        start.await();
                        ok(bind(api.as(user), 1, token, "apns-prod").post("/user/token/bind"));
                        ok(api.as(user).queryParam("value", "true").post("/user/push"));
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> call : calls) {
                    call.get(60, TimeUnit.SECONDS);
                }
                assertTrue(tokensOf(phone).get("ios").startsWith("race-" + round + "-"), tokensOf(phone).toString());
                assertEquals(Boolean.TRUE, pushDisabled(user));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---------------------------------------------------------------- opt-out

    @Test
    void valueTrueOptsTheUserOutAndFalseBackIn() {
        ok(api.as(alice).get("/user/push")).body("data.push_disabled", equalTo(false));
        ok(api.as(alice).queryParam("value", "true").post("/user/push")).body("data", equalTo(true));
        ok(api.as(alice).get("/user/push")).body("data.push_disabled", equalTo(true));
        assertEquals(Boolean.TRUE, pushDisabled(alice));
        ok(api.as(bob).get("/user/push")).body("data.push_disabled", equalTo(false));
        ok(api.as(alice).queryParam("value", "false").post("/user/push")).body("data", equalTo(true));
        ok(api.as(alice).get("/user/push")).body("data.push_disabled", equalTo(false));
        assertEquals(Boolean.FALSE, pushDisabled(alice));
    }

    @Test
    void optOutNeedsABooleanValue() {
        fails(api.as(alice).post("/user/push"), "value");
        fails(api.as(alice).queryParam("value", "").post("/user/push"), "value");
        fails(api.as(alice).queryParam("value", "yes").post("/user/push"), "value");
        fails(api.as(alice).queryParam("value", 1).post("/user/push"), "value");
        assertNull(pushDisabled(alice));
    }

    // ---------------------------------------------------------------- helpers

    /** A certificate row with dummy secrets: enough for a bind to find its name. */
    static void insertCertificate(Database database, String appId, String name, int provider, int environment) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_certificates (app_id, provider, environment,"
                    + " name, provider_app_id, app_key, app_secret_enc, certificate_enc) values (?, ?, ?, ?, 'id', 'key', ?, ?)")) {
                ps.setString(1, appId);
                ps.setInt(2, provider);
                ps.setInt(3, environment);
                ps.setString(4, name);
                ps.setBytes(5, new byte[] {1});
                ps.setBytes(6, new byte[] {2});
                ps.executeUpdate();
            }
            return null;
        });
    }

    static RequestSpecification bind(RequestSpecification as, Object deviceSn, Object deviceToken, Object notifierName) {
        Map<String, Object> body = new HashMap<>();
        body.put("device_sn", deviceSn);
        body.put("device_token", deviceToken);
        body.put("notifier_name", notifierName);
        return as.body(body);
    }

    static ValidatableResponse ok(Response response) {
        return response.then().statusCode(200).body("code", equalTo(200)).body("message", nullValue());
    }

    static void fails(Response response, String field) {
        response.then().statusCode(200).body("code", equalTo(10002)).body("data", nullValue())
                .body("message", startsWith(field + ":"));
    }

    private static List<String> tags(int from, int to) {
        return new ArrayList<>(IntStream.range(from, to).mapToObj(i -> "tag-" + i).toList());
    }

    /** The device's bound tokens: channel -> "token notifier_name environment". */
    private Map<String, String> tokensOf(String pushToken) {
        return tokensOf(api.deviceId(pushToken));
    }

    private Map<String, String> tokensOf(long deviceId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select channel, token, notifier_name, environment, app_id"
                    + " from push_device_tokens where device_id = ?")) {
                ps.setLong(1, deviceId);
                Map<String, String> tokens = new TreeMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        assertEquals(api.appId, rs.getString(5));
                        tokens.put(rs.getString(1), rs.getString(2) + " " + rs.getString(3) + " " + rs.getInt(4));
                    }
                }
                return tokens;
            }
        });
    }

    record DeviceRow(long deviceId, String pushToken, String alias) {}

    private DeviceRow deviceRow(long userId, int deviceSn) {
        return deviceRow(database, api.appId, userId, deviceSn);
    }

    /** The device's registry row, or null. */
    static DeviceRow deviceRow(Database database, String appId, long userId, int deviceSn) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select device_id, push_token, alias from push_devices"
                    + " where app_id = ? and user_id = ? and device_sn = ?")) {
                ps.setString(1, appId);
                ps.setLong(2, userId);
                ps.setInt(3, deviceSn);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? new DeviceRow(rs.getLong(1), rs.getString(2), rs.getString(3)) : null;
                }
            }
        });
    }

    private Boolean pushDisabled(long userId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select push_disabled from push_users where app_id = ? and user_id = ?")) {
                ps.setString(1, api.appId);
                ps.setLong(2, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getBoolean(1) : null;
                }
            }
        });
    }
}

package io.imcore.message.moderation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.standardwebhooks.Webhook;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.message.webhook.AppEndpointStub;
import io.imcore.message.webhook.AppEndpointStub.Answer;
import io.imcore.testing.InfrastructureResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The word filter and the before-send hook on /message/send (docs/webhooks.md). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class ModerationTest extends AppWithUsers {

    @Inject
    MeterRegistry registry;

    private AppEndpointStub hook;

    @BeforeEach
    void startHook() throws Exception {
        hook = new AppEndpointStub();
    }

    @AfterEach
    void stopHook() {
        hook.close();
    }

    /** The app's hook, answering as {@code answers} says; returns its secret. */
    private String hookOf(MessageApi app, int timeoutMs, boolean failOpen) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("url", hook.url());
        settings.put("events", List.of());
        settings.put("before_send", true);
        settings.put("hook_timeout_ms", timeoutMs);
        settings.put("hook_fail_open", failOpen);
        return app.asAdmin().body(settings).post("/app/webhook").then().statusCode(200)
                .extract().jsonPath().getString("data.secret");
    }

    private JsonPath send(MessageApi app, long from, long to, String content) {
        return app.send(from, MessageApi.text(content, List.of(to))).extract().jsonPath();
    }

    private List<String> stored() {
        return api.page(bob, alice, 0, 100).extract().jsonPath().getList("data.messages.content");
    }

    private double calls(String outcome) {
        var counter = registry.find("imcore.webhook.hook.calls").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void theHookAllowsRefusesAndRewrites() throws Exception {
        hook.answer(request -> {
            String content = JsonPath.from(request.body()).getString("data.content");
            return switch (content) {
                case "buy cheap pills" -> Answer.ok("{\"action\":\"refuse\",\"code\":4031,\"message\":\"no ads\"}");
                case "call me at 555" -> Answer.ok("{\"action\":\"replace\",\"content\":\"call me at ***\","
                        + "\"ext\":\"{\\\"moderated\\\":true}\"}");
                default -> Answer.ok("{\"action\":\"allow\"}");
            };
        });
        String secret = hookOf(api, 2_000, true);

        assertEquals(200, send(api, alice, bob, "hello").getInt("code"));
        AppEndpointStub.Received asked = hook.next(30);
        new Webhook(secret).verify(asked.body(), asked.headers());
        JsonPath event = JsonPath.from(asked.body());
        assertEquals("message.before_send", event.getString("type"));
        assertEquals(alice, event.getLong("data.from_user_id"));
        assertEquals(List.of((int) bob), event.getList("data.targets"));

        JsonPath refused = send(api, alice, bob, "buy cheap pills");
        assertEquals(21001, refused.getInt("code"));
        assertEquals(4031, refused.getInt("data.app_code"));
        assertEquals("no ads", refused.getString("data.app_message"));
        assertTrue(refused.getString("message").endsWith("no ads"), refused.getString("message"));

        assertEquals(200, send(api, alice, bob, "call me at 555").getInt("code"));
        assertEquals(List.of("hello", "call me at ***"), stored());
        assertEquals("{\"moderated\":true}", api.page(bob, alice, 0, 1).extract().path("data.messages[0].ext"));
    }

    @Test
    void aHookThatTimesOutFailsOpenOrClosedAsTheAppChose() {
        hook.answer(request -> new Answer(200, "{\"action\":\"refuse\"}", 1_000));
        hookOf(api, 100, true);
        assertEquals(200, send(api, alice, bob, "sent without an answer").getInt("code"));
        assertEquals(List.of("sent without an answer"), stored());

        hookOf(api, 100, false);
        JsonPath closed = send(api, alice, bob, "held back");
        assertEquals(21002, closed.getInt("code"));
        assertTrue(closed.getString("message").contains("timeout"), closed.getString("message"));
        assertEquals(List.of("sent without an answer"), stored(), "nothing stored when failing closed");
    }

    @Test
    void theBreakerOpensUnderASlowHookWhileAnotherAppsSendsKeepTheirPace() throws Exception {
        hook.answer(request -> new Answer(200, "{\"action\":\"allow\"}", 3_000));
        hookOf(api, 2_000, true);
        MessageApi other = MessageApi.newApp(database);
        long dora = other.newUser();
        long ed = other.newUser();
        assertEquals(200, send(other, dora, ed, "warm").getInt("code"));
        double breakerOpenBefore = calls("breaker_open");

        ExecutorService slowSenders = Executors.newFixedThreadPool(5);
        try {
            List<Future<Integer>> slow = new ArrayList<>();
            for (int i = 0; i < 5; i++) { // the default im.webhooks.hook.breaker-failures
                String content = "slow " + i;
                slow.add(slowSenders.submit(() -> send(api, alice, bob, content).getInt("code")));
            }
            for (int i = 0; i < 5; i++) {
                assertNotNull(hook.next(30), "the slow hook was called");
            }
            // the other app's sends are answered while the slow app's still wait for their hook's timeout
            for (int i = 0; i < 3; i++) {
                assertEquals(200, send(other, dora, ed, "brisk " + i).getInt("code"));
            }
            assertTrue(slow.stream().noneMatch(Future::isDone), "the other app's sends did not wait for the hook");
            for (Future<Integer> code : slow) {
                assertEquals(200, code.get(), "fail open: sent after the timeout");
            }
        } finally {
            slowSenders.shutdown();
        }
        long start = System.nanoTime();
        assertEquals(200, send(api, alice, bob, "decided without a call").getInt("code"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(breakerOpenBefore + 1, calls("breaker_open"), "decided by the open breaker");
        assertTrue(millis < 2_000, "no wait for the hook's timeout: " + millis + " ms");
        assertEquals(6, stored().size());
    }

    @Test
    void theWordFilterRefusesAndMasksChineseAndEnglishBeforeTheHook() throws Exception {
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("action", "refuse");
        list.put("words", List.of("赌博", "Fraud", "法轮"));
        assertEquals(200, api.asAdmin().body(list).post("/app/word_filter").then().statusCode(200)
                .extract().jsonPath().getInt("code"));
        assertEquals(21001, send(api, alice, bob, "网上赌博").getInt("code"));
        assertEquals(21001, send(api, alice, bob, "a FRAUD alert").getInt("code"));
        assertEquals(200, send(api, alice, bob, "你好 clean").getInt("code"));

        hookOf(api, 2_000, true);
        Map<String, Object> edit = new LinkedHashMap<>();
        edit.put("action", "mask");
        edit.put("add", List.of("博彩"));
        edit.put("remove", List.of("法轮"));
        JsonPath edited = api.asAdmin().body(edit).post("/app/word_filter/edit").then().statusCode(200)
                .extract().jsonPath();
        assertEquals("mask", edited.getString("data.action"));
        assertEquals(List.of("赌博", "Fraud", "博彩"), edited.getList("data.words"));
        assertEquals(200, send(api, alice, bob, "no fraud, 赌博 or 博彩 here").getInt("code"));
        AppEndpointStub.Received asked = hook.next(30);
        assertNotNull(asked);
        assertEquals("no *****, ** or ** here", JsonPath.from(asked.body()).getString("data.content"),
                "the hook sees the masked text");
        assertEquals(List.of("你好 clean", "no *****, ** or ** here"), stored());

        Map<String, Object> blank = Map.of("action", "mask", "words", List.of(" "));
        assertEquals("words: words must not be blank", api.asAdmin().body(blank).post("/app/word_filter")
                .then().extract().path("message"));
    }
}

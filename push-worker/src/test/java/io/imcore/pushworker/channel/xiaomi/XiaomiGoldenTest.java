package io.imcore.pushworker.channel.xiaomi;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static io.imcore.pushworker.channel.AdapterTestSupport.deliveries;
import static io.imcore.pushworker.channel.AdapterTestSupport.form;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.VendorHttp;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.xiaomi.XiaomiSimulator;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Independent proof for Xiaomi: golden requests transcribed from Xiaomi's official Java server SDK and documents
 * (src/test/resources/golden/xiaomi, each naming its sources) are accepted by the simulator, the simulator refuses
 * what those sources forbid, and our adapter's request carries the same fields with the same value types as the
 * golden one. Xiaomi's SDK jar is not on Maven Central, so it cannot drive the simulator from a test here.
 */
class XiaomiGoldenTest {

    static final XiaomiSimulator sim = new XiaomiSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(sim);
    static final HttpClient http = HttpClient.newHttpClient();
    static final Pattern INTEGER = Pattern.compile("-?\\d+");
    static final String INTENT_GOLDEN = "regid-notification-intent.form";
    static final String LAUNCHER_GOLDEN = "regid-notification-launcher.form";

    @Test
    void goldenRequestsAreAccepted() throws Exception {
        for (String golden : List.of(INTENT_GOLDEN, LAUNCHER_GOLDEN)) {
            JsonNode answer = post(golden(golden));
            assertEquals(0, answer.path("code").asInt(-1), golden + ": " + answer);
            assertNotNull(answer.path("data").get("id"), golden + ": " + answer);
        }
    }

    @Test
    void simulatorRefusesWhatXiaomisSourcesForbid() throws Exception {
        assertRefused(10017, f -> f.put("pass_through", "1"));
        assertRefused(10016, f -> f.remove("title"));
        assertRefused(10016, f -> f.remove("description"));
        assertRefused(10017, f -> f.put("title", "   "));
        assertRefused(10017, f -> f.put("title", "长".repeat(50)));
        assertRefused(10017, f -> f.put("description", "长".repeat(128)));
        assertRefused(10017, f -> f.remove("extra.notify_effect"));
        assertRefused(10017, f -> f.remove("extra.intent_uri"));
        // 表1-1 notify_id: an integer 0..2147483647
        assertRefused(10017, f -> f.put("notify_id", "2147483648"));
        assertRefused(10017, f -> f.put("notify_id", "-1"));
        assertRefused(10017, f -> f.put("notify_id", "c-3f9a1b2c"));
        assertRefused(65009, f -> f.put("payload", "{\"k\":\"" + "v".repeat(4090) + "\"}"));
        assertRefused(10016, f -> f.remove("restricted_package_name"));
        assertRefused(10017, f -> f.put("registration_id", String.join(",", Collections.nCopies(1001, "r"))));
        sim.registerChannel("com.example.chat", "im_other", true);
        assertRefused(27001, f -> { });
        sim.registerChannel("com.example.chat", "im_private", true);
        assertEquals(0, post(golden(INTENT_GOLDEN)).path("code").asInt(-1));
    }

    @Test
    void adapterSendsTheGoldenFieldsWithTheirTypes() throws Exception {
        XiaomiAdapter adapter = new XiaomiAdapter(settings(Channel.XIAOMI, running.base(), Optional.empty(),
                Optional.of(URI.create("https://push.example.com/push/receipt/vendor_b"))));
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "Alice").put("body", "short")
                .put("big_text", "Are you coming tonight?").put("badge", "+1")
                .put("show_end_time", Instant.now().getEpochSecond() + 86400);
        m.putObject("ext").put("conversation", "10001");
        m.putObject("channels").putObject("vendor_b").put("sound", "ding").put("channel_id", "im_private")
                .put("click_action", "intent").put("intent", "intent:#Intent;component=com.example.chat/.Chat;end");
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(credentials(),
                new Notification(12L, "app1", m), deliveries("regid-1", "regid-2")));
        assertSameFieldsAndTypes(golden(INTENT_GOLDEN), lastSent());

        XiaomiAdapter plain = new XiaomiAdapter(settings(Channel.XIAOMI, running.base(), Optional.empty(),
                Optional.empty()));
        assertEquals(List.of(Outcome.ACCEPTED), plain.send(credentials(),
                AdapterTestSupport.textNotification(13L, "Bob", "sent you a message"), deliveries("regid-3")));
        assertSameFieldsAndTypes(golden(LAUNCHER_GOLDEN), lastSent());
    }

    private static void assertSameFieldsAndTypes(Map<String, String> golden, Map<String, String> ours) {
        assertEquals(golden.keySet(), ours.keySet(), "field names");
        golden.forEach((name, value) -> assertEquals(INTEGER.matcher(value).matches(),
                INTEGER.matcher(ours.get(name)).matches(), name + " integer in one request only: golden " + value
                        + ", ours " + ours.get(name)));
        assertEquals(isJsonObject(golden.get("payload")), isJsonObject(ours.get("payload")), "payload");
    }

    private static boolean isJsonObject(String value) {
        JsonNode node = value == null ? null : VendorHttp.json(value);
        return node != null && node.isObject();
    }

    private static void assertRefused(int code, Consumer<Map<String, String>> change) throws Exception {
        Map<String, String> request = golden(INTENT_GOLDEN);
        change.accept(request);
        JsonNode answer = post(request);
        assertEquals(code, answer.path("code").asInt(-1), answer.toString());
        assertEquals("error", answer.path("result").asText(), answer.toString());
    }

    private static JsonNode post(Map<String, String> fields) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(running.base() + XiaomiAdapter.PATH))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
                .header("Authorization", "key=golden-secret")
                .POST(HttpRequest.BodyPublishers.ofString(VendorHttp.form(fields)))
                .build();
        return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }

    private static Map<String, String> lastSent() {
        List<Recorder.Request> sent = recorded(sim, p -> p.startsWith(XiaomiAdapter.PATH));
        return form(sent.get(sent.size() - 1).body());
    }

    private static Credentials credentials() {
        return AdapterTestSupport.credentials(Channel.XIAOMI, "mi", "com.example.chat", "", "golden-secret", 1L);
    }

    /** A golden request's fields in their order: name=value lines, # comments. */
    static Map<String, String> golden(String name) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        try (InputStream in = XiaomiGoldenTest.class.getResourceAsStream("/golden/xiaomi/" + name)) {
            assertNotNull(in, name);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    int eq = line.indexOf('=');
                    fields.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        return fields;
    }
}

package io.imcore.pushworker.channel.oppo;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static io.imcore.pushworker.channel.AdapterTestSupport.form;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.VendorHttp;
import io.imcore.simulators.oppo.OppoSimulator;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Independent proof for OPPO: the golden unicast_batch request transcribed from OPPO's documentation and official
 * SDK (src/test/resources/golden/oppo/unicast_batch.json names its sources) is accepted by the simulator, and the
 * adapter's own requests have the same fields, types and nesting.
 */
class OppoGoldenRequestTest {

    static final OppoSimulator sim = new OppoSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(sim);

    static JsonNode golden() throws Exception {
        try (InputStream in = OppoGoldenRequestTest.class.getResourceAsStream("/golden/oppo/unicast_batch.json")) {
            return JSON.readTree(in);
        }
    }

    @Test
    void theSimulatorAcceptsTheGoldenRequest() throws Exception {
        sim.registerApp("", "golden-app-key", "golden-master-secret", "");
        HttpClient http = HttpClient.newHttpClient();
        String timestamp = Long.toString(System.currentTimeMillis());
        Map<String, String> auth = new LinkedHashMap<>();
        auth.put("app_key", "golden-app-key");
        auth.put("timestamp", timestamp);
        auth.put("sign", OppoAdapter.sign("golden-app-key", timestamp, "golden-master-secret"));
        JsonNode token = JSON.readTree(post(http, OppoAdapter.AUTH_PATH, auth)).path("data").path("auth_token");
        assertTrue(token.isTextual(), "auth answered a token");

        JsonNode golden = golden();
        Map<String, String> send = new LinkedHashMap<>();
        send.put("auth_token", token.asText());
        send.put("messages", golden.path("form").path("messages").toString());
        assertEquals(OppoAdapter.SEND_PATH, golden.path("path").asText());
        JsonNode answer = JSON.readTree(post(http, golden.path("path").asText(), send));
        assertEquals(0, answer.path("code").asInt(), answer.toString());
        assertEquals(2, answer.path("data").size());
        for (JsonNode item : answer.path("data")) {
            assertFalse(item.has("errorCode"), item.toString());
        }
    }

    @Test
    void theSimulatorTakesOnlyAnIntegerNotifyId() throws Exception {
        sim.registerApp("", "golden-app-key", "golden-master-secret", "");
        HttpClient http = HttpClient.newHttpClient();
        String timestamp = Long.toString(System.currentTimeMillis());
        Map<String, String> auth = new LinkedHashMap<>();
        auth.put("app_key", "golden-app-key");
        auth.put("timestamp", timestamp);
        auth.put("sign", OppoAdapter.sign("golden-app-key", timestamp, "golden-master-secret"));
        String token = JSON.readTree(post(http, OppoAdapter.AUTH_PATH, auth)).path("data").path("auth_token").asText();
        // 通知栏消息 notify_id; SDK Notification.notifyId is an Integer
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("486", null);
        expected.put("2147483647", null);
        expected.put("\"486\"", 41);
        expected.put("2147483648", 41);
        expected.put("4.5", 41);
        for (Map.Entry<String, Integer> notifyId : expected.entrySet()) {
            ArrayNode messages = (ArrayNode) golden().path("form").path("messages").deepCopy();
            ((ObjectNode) messages.get(0).get("notification")).set("notify_id", JSON.readTree(notifyId.getKey()));
            Map<String, String> send = new LinkedHashMap<>();
            send.put("auth_token", token);
            send.put("messages", messages.toString());
            JsonNode answer = JSON.readTree(post(http, OppoAdapter.SEND_PATH, send));
            JsonNode item = answer.path("data").get(0);
            if (notifyId.getValue() == null) {
                assertFalse(item.has("errorCode"), notifyId.getKey() + ": " + answer);
            } else {
                assertEquals(41, item.path("errorCode").asInt(), notifyId.getKey() + ": " + answer);
            }
        }
    }

    @Test
    void theAdaptersRequestHasTheGoldenFieldsTypesAndNesting() throws Exception {
        JsonNode golden = golden();
        OppoAdapter adapter = new OppoAdapter(settings(Channel.OPPO, running.base(), Optional.of(running.base()),
                Optional.of(URI.create("https://push.example.com/push/receipt/vendor_c"))));
        // a chat message opening an activity, then a long one opening an intent URI: the golden's two messages
        Notification activity = AdapterTestSupport.textNotification(42, "新消息", "Alice: 晚上一起吃饭吗？");
        activity.message().putObject("ext").put("conversation_id", "10001");
        activity.message().putObject("channels").putObject("vendor_c").put("channel_id", "chat_message")
                .put("click_action", "intent").put("intent", "com.example.chat/.ConversationActivity");
        Notification uri = AdapterTestSupport.textNotification(43, "Bob", "提到了你");
        uri.message().put("big_text", "Bob 在群聊中提到了你：明天上午十点开会，请准时参加。");
        uri.message().putObject("ext").put("conversation_id", "10002");
        uri.message().putObject("channels").putObject("vendor_c").put("channel_id", "chat_message")
                .put("click_action", "intent").put("intent", "intent://chat/10002#Intent;scheme=example;end");
        var credentials = AdapterTestSupport.credentials(Channel.OPPO, "op", "", "k", "m", 1);
        for (Notification n : List.of(activity, uri)) {
            assertEquals(Outcome.ACCEPTED, adapter.send(credentials, n,
                    AdapterTestSupport.deliveries("CN_2DFC77B0D34EFDACA377F92554CBE4AB")).get(0));
        }
        var sends = recorded(sim, path -> path.equals(OppoAdapter.SEND_PATH));
        assertEquals(2, sends.size());
        for (int i = 0; i < 2; i++) {
            Map<String, String> sent = form(sends.get(i).body());
            assertEquals(fieldNames(golden.path("form")), new TreeSet<>(sent.keySet()), "form fields");
            JsonNode ours = JSON.readTree(sent.get("messages")).get(0);
            List<String> differences = new ArrayList<>();
            compare("messages[" + i + "]", golden.path("form").path("messages").get(i), ours, differences);
            assertTrue(differences.isEmpty(), String.join("\n", differences));
        }
    }

    /** Same field names, JSON types and nesting (values may differ). */
    static void compare(String path, JsonNode golden, JsonNode ours, List<String> differences) {
        if (golden.getNodeType() != ours.getNodeType()) {
            differences.add(path + ": golden " + golden.getNodeType() + ", ours " + ours.getNodeType());
            return;
        }
        if (!golden.isObject()) {
            return;
        }
        if (!fieldNames(golden).equals(fieldNames(ours))) {
            differences.add(path + ": golden fields " + fieldNames(golden) + ", ours " + fieldNames(ours));
            return;
        }
        for (String field : fieldNames(golden)) {
            compare(path + "." + field, golden.get(field), ours.get(field), differences);
        }
    }

    static TreeSet<String> fieldNames(JsonNode object) {
        TreeSet<String> names = new TreeSet<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static String post(HttpClient http, String path, Map<String, String> form) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(VendorHttp.resolve(running.base(), path))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(VendorHttp.form(form)))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }
}

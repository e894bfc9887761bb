package io.imcore.pushworker.channel.huawei;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.huawei.HuaweiSimulator;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Independent proof for Huawei (issue 12): requests transcribed from Huawei's documentation and official server demo
 * (src/test/resources/golden/huawei, each naming its source) are accepted by our simulator, and every field our
 * adapter sends exists in them with the same name, nesting and JSON type.
 */
class HuaweiGoldenRequestTest {

    static final List<String> GOLDEN = List.of("rest-sample-notification", "badge-sample", "demo-data-message",
            "demo-notify-message", "demo-model-fields");

    static final HuaweiSimulator sim = new HuaweiSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(sim);

    static JsonNode golden(String name) throws IOException {
        try (InputStream in = HuaweiGoldenRequestTest.class.getResourceAsStream("/golden/huawei/" + name + ".json")) {
            JsonNode fixture = JSON.readTree(in);
            assertFalse(fixture.path("source").asText().isBlank(), name + " names its source");
            return fixture.get("request");
        }
    }

    @Test
    void simulatorAcceptsEveryGoldenRequest() throws Exception {
        for (String name : GOLDEN) {
            HttpResponse<String> answer = RawHuaweiClient.send(running.base(), golden(name).toString());
            assertEquals("80000000", JSON.readTree(answer.body()).path("code").asText(), name + ": " + answer.body());
        }
    }

    @Test
    void everyFieldTheAdapterSendsIsInTheGoldenRequests() throws Exception {
        Map<String, Set<JsonNodeType>> documented = new TreeMap<>();
        for (String name : GOLDEN) {
            fields("", golden(name), documented);
        }
        HuaweiAdapter adapter = new HuaweiAdapter(settings(Channel.HUAWEI, running.base(), Optional.empty(),
                Optional.empty()));
        var credentials = AdapterTestSupport.credentials(Channel.HUAWEI, "hw", "10086", "", "s", 1);
        for (Notification notification : everyFeature()) {
            List<Outcome> out = adapter.send(credentials, notification, List.of(new Delivery(null, "tok", 7)));
            assertEquals(List.of(Outcome.ACCEPTED), out, notification.message().toString());
        }
        Map<String, Set<JsonNodeType>> ours = new TreeMap<>();
        for (Recorder.Request request : recorded(sim, path -> path.contains("messages:send"))) {
            fields("", JSON.readTree(request.body()), ours);
        }
        List<String> unknown = new ArrayList<>();
        ours.forEach((path, types) -> {
            if (!documented.getOrDefault(path, Set.of()).containsAll(types)) {
                unknown.add(path + " " + types + " (golden: " + documented.get(path) + ")");
            }
        });
        assertTrue(unknown.isEmpty(), "fields not in any golden request: " + unknown);
        // the comparison covers what matters: texts, category, badge, click action, image, data
        for (String path : List.of("message.android.category", "message.android.notification.title",
                "message.android.notification.badge.set_num", "message.android.notification.click_action.intent",
                "message.android.notification.click_action.action", "message.android.notification.image",
                "message.android.notification.big_body", "message.android.ttl", "message.data", "message.token[]",
                "message.android.notification.notify_id", "message.android.notification.group")) {
            assertTrue(ours.containsKey(path), path + " sent by the adapter");
        }
    }

    /** Messages that, together, make the adapter send every field it can. */
    static List<Notification> everyFeature() throws Exception {
        ObjectNode full = JSON.createObjectNode().put("type", "image").put("title", "Alice").put("body", "hi")
                .put("big_text", "a longer text").put("badge", "+1")
                .put("attachment_url", "https://img.example.com/a.png")
                .put("show_end_time", System.currentTimeMillis() / 1000 + 600)
                .put("collapse_key", "c-3f9a1b2c").put("notify_id", 486).put("group", "c-3f9a1b2c");
        full.putObject("ext").put("conversation", 42);
        full.putObject("channels").putObject("vendor_a").put("sound", "ding").put("channel_id", "chat")
                .put("click_action", "intent").put("intent", "intent://chat#Intent;scheme=app;end")
                .put("badge_class", "com.example.Main").put("category", "IM");
        ObjectNode action = JSON.createObjectNode().put("type", "text").put("title", "t").put("body", "b")
                .put("badge", "+1");
        action.putObject("channels").putObject("vendor_a").put("click_action", "intent")
                .put("intent", "com.example.app/.Chat");
        ObjectNode cmd = JSON.createObjectNode().put("type", "cmd").put("title", "").put("body", "")
                .put("badge", "+1");
        cmd.putObject("ext").put("op", "sync");
        return List.of(new Notification(1L, "app1", full), new Notification(2L, "app1", action),
                new Notification(3L, "app1", cmd));
    }

    /** Every field path of {@code node} with its JSON type; array elements under {@code path[]}. */
    static void fields(String path, JsonNode node, Map<String, Set<JsonNodeType>> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                out.computeIfAbsent(child, p -> new TreeSet<>()).add(field.getValue().getNodeType());
                fields(child, field.getValue(), out);
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                out.computeIfAbsent(path + "[]", p -> new TreeSet<>()).add(element.getNodeType());
                fields(path + "[]", element, out);
            }
        }
    }
}

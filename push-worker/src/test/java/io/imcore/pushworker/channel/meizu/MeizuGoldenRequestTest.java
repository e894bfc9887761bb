package io.imcore.pushworker.channel.meizu;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.meizu.MeizuSimulator;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Golden requests transcribed from Meizu's PushAPI README (golden/meizu/*.json, each naming its source): the
 * simulator must accept them with the sign checked, and our adapter's requests must have the same form fields and
 * the same messageJson field names, JSON types and nesting (values may differ; fields the golden request has and
 * ours leaves out are optional ones, except those listed as required).
 */
class MeizuGoldenRequestTest {

    static final MeizuSimulator simulator = new MeizuSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(simulator);

    /** A golden request: its form with messageJson as text and the sign filled in, and what the comparison needs. */
    record Golden(String path, String appSecret, Map<String, String> form, JsonNode messageJson,
            List<String> required, List<String> freeForm) {}

    static Golden golden(String name) throws Exception {
        JsonNode file;
        try (InputStream in = MeizuGoldenRequestTest.class.getResourceAsStream("/golden/meizu/" + name)) {
            file = JSON.readTree(in);
        }
        JsonNode form = file.get("form");
        JsonNode message = form.get("messageJson");
        String messageJson = message.isTextual() ? message.asText() : message.toString();
        String appSecret = file.get("app_secret").asText();
        Map<String, String> fields = new TreeMap<>(Map.of("appId", form.get("appId").asText(),
                "pushIds", form.get("pushIds").asText(), "messageJson", messageJson));
        fields.put("sign", form.get("sign").isNull() ? MeizuAdapter.sign(fields, appSecret) : form.get("sign").asText());
        return new Golden(file.get("path").asText(), appSecret, fields, JSON.readTree(messageJson),
                strings(file.get("required")), strings(file.get("free_form")));
    }

    @Test
    void ourSignReproducesTheDocumentedExample() throws Exception {
        Golden example = golden("pass-through-sign-example.json");
        Map<String, String> unsigned = new TreeMap<>(example.form());
        unsigned.remove("sign");
        assertEquals("ac076ff25d9900015a681cb5172aa53b", MeizuAdapter.sign(unsigned, example.appSecret()));
    }

    @Test
    void theSimulatorAcceptsTheGoldenRequests() throws Exception {
        for (String name : List.of("pass-through-sign-example.json", "notification-pushByPushId.json")) {
            Golden golden = golden(name);
            simulator.registerApp(golden.form().get("appId"), golden.appSecret());
            JsonNode answer = MeizuForms.post(running.base(), golden.path(), golden.form());
            assertEquals("200", answer.get("code").asText(), name + ": " + answer);
            assertEquals(0, answer.get("value").size(), name + ": " + answer);
            for (String pushId : golden.form().get("pushIds").split(",")) {
                assertEquals(1, simulator.recorder().deliveriesTo(pushId), name + ": " + pushId);
            }
            // the check is real: the same request with a wrong sign is refused
            Map<String, String> forged = new TreeMap<>(golden.form());
            forged.put("sign", MeizuAdapter.sign(forged, "another-secret"));
            assertEquals("1006", MeizuForms.post(running.base(), golden.path(), forged).get("code").asText());
        }
    }

    @Test
    void ourNotificationsHaveTheGoldenShape() throws Exception {
        Golden golden = golden("notification-pushByPushId.json");
        MeizuAdapter adapter = new MeizuAdapter(AdapterTestSupport.settings(Channel.MEIZU, running.base(),
                Optional.empty(), Optional.of(URI.create("http://127.0.0.1:9/push/receipt/vendor_e"))));
        String richest = "\"title\":\"Hi\",\"body\":\"Hello\",\"big_text\":\"more\",\"badge\":\"+1\","
                + "\"ext\":{\"k\":\"v\",\"n\":1},\"collapse_key\":\"c-3f9a1b2c\",\"show_end_time\":"
                + (Instant.now().getEpochSecond() + 7200);
        for (String click : List.of("{}", "{\"click_action\":\"intent\",\"intent\":\"com.example.Chat\"}",
                "{\"click_action\":\"intent\",\"intent\":\"chat://room/1\"}")) {
            Notification n = AdapterTestSupport.notification(7, "{\"type\":\"text\"," + richest
                    + ",\"channels\":{\"vendor_e\":" + click + "}}");
            assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(), n, deliveries()));
        }
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials(), AdapterTestSupport.textNotification(8, "", "body only"), deliveries()));
        assertOursHaveTheGoldenShape(golden, 4);
    }

    @Test
    void ourPassThroughMessagesHaveTheGoldenShape() throws Exception {
        Golden golden = golden("pass-through-sign-example.json");
        MeizuAdapter adapter = new MeizuAdapter(AdapterTestSupport.settings(Channel.MEIZU, running.base(),
                Optional.empty(), Optional.empty()));
        Notification cmd = AdapterTestSupport.notification(9, "{\"type\":\"cmd\",\"title\":\"sync\",\"body\":\"\","
                + "\"badge\":\"+1\",\"ext\":{\"op\":\"sync\"},\"channels\":{}}");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(), cmd, deliveries()));
        assertOursHaveTheGoldenShape(golden, 1);
    }

    /** The last {@code count} requests our adapter sent to the golden request's path, compared with it. */
    private static void assertOursHaveTheGoldenShape(Golden golden, int count) throws Exception {
        List<Recorder.Request> ours = AdapterTestSupport.recorded(simulator, golden.path()::equals);
        assertEquals(count, ours.size());
        for (Recorder.Request request : ours) {
            Map<String, String> form = AdapterTestSupport.form(request.body());
            assertEquals(golden.form().keySet(), new TreeMap<>(form).keySet());
            JsonNode message = JSON.readTree(form.get("messageJson"));
            List<String> differences = new ArrayList<>();
            compare(golden.messageJson(), message, "", golden.freeForm(), differences);
            for (String pointer : golden.required()) {
                if (message.at(pointer).isMissingNode()) {
                    differences.add(pointer + ": required, missing");
                }
            }
            assertTrue(differences.isEmpty(), String.join("\n", differences) + "\nin " + message);
        }
    }

    /** Every field of {@code ours} exists in {@code golden} with the same JSON type, recursively. */
    private static void compare(JsonNode golden, JsonNode ours, String at, List<String> freeForm,
            List<String> differences) {
        for (Iterator<Map.Entry<String, JsonNode>> it = ours.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String pointer = at + "/" + field.getKey();
            JsonNode expected = golden.get(field.getKey());
            if (expected == null) {
                differences.add(pointer + ": not in the golden request");
            } else if (expected.getNodeType() != field.getValue().getNodeType()
                    || expected.isIntegralNumber() != field.getValue().isIntegralNumber()) {
                differences.add(pointer + ": " + field.getValue().getNodeType() + ", golden "
                        + expected.getNodeType());
            } else if (expected.isObject() && !freeForm.contains(pointer)) {
                compare(expected, field.getValue(), pointer, freeForm, differences);
            }
        }
    }

    private static Credentials credentials() {
        return AdapterTestSupport.credentials(Channel.MEIZU, "meizu-prod", "100999", "", "s", 1);
    }

    private static List<Delivery> deliveries() {
        return AdapterTestSupport.targetedDeliveries("meizu-prod", "pid-golden");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.asText()));
        return out;
    }
}

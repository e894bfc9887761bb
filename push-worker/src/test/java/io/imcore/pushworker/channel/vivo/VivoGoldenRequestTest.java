package io.imcore.pushworker.channel.vivo;

import static io.imcore.pushworker.channel.AdapterTestSupport.notification;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.targetedDeliveries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.vivo.VivoSimulator;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Independent proof for vivo: golden requests transcribed from vivo's official server API document and server
 * SDK (src/test/resources/golden/vivo, each file names its sources) are accepted by the simulator, and the adapter's
 * requests have exactly their fields, types and nesting (values may differ).
 */
class VivoGoldenRequestTest {

    static final ObjectMapper MAPPER = new ObjectMapper();
    static final VivoSimulator simulator = new VivoSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(simulator);
    static final HttpClient HTTP = HttpClient.newHttpClient();

    /** A golden request: the fixture without its leading {@code //} lines (the sources). */
    static ObjectNode golden(String name) throws IOException {
        try (InputStream in = VivoGoldenRequestTest.class.getResourceAsStream("/golden/vivo/" + name + ".jsonc")) {
            assertNotNull(in, name);
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.startsWith("//")).collect(Collectors.joining("\n"));
            return (ObjectNode) MAPPER.readTree(json);
        }
    }

    static JsonNode post(String path, JsonNode body, String authToken) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(running.base() + path))
                .header("Content-Type", "application/json;charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (authToken != null) {
            request.header("authToken", authToken);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return MAPPER.readTree(response.body());
    }

    static void assertAccepted(String path, JsonNode answer) {
        assertEquals(0, answer.path("result").asInt(-1), path + " refused: " + answer);
    }

    @Test
    void theSimulatorAcceptsTheGoldenRequests() throws Exception {
        ObjectNode auth = golden("auth").put("timestamp", System.currentTimeMillis());
        JsonNode authAnswer = post("/message/auth", auth, null);
        assertAccepted("/message/auth", authAnswer);
        String token = authAnswer.get("authToken").asText();

        ObjectNode send = golden("send");
        assertAccepted("/message/send", post("/message/send", send, token));
        assertEquals(1, simulator.recorder().deliveriesTo(send.get("regId").asText()));

        JsonNode saved = post("/message/saveListPayload", golden("saveListPayload"), token);
        assertAccepted("/message/saveListPayload", saved);
        ObjectNode pushToList = golden("pushToList").put("taskId", saved.get("taskId").asText());
        assertAccepted("/message/pushToList", post("/message/pushToList", pushToList, token));
        for (JsonNode regId : pushToList.get("regIds")) {
            assertEquals(1, simulator.recorder().deliveriesTo(regId.asText()));
        }
    }

    @Test
    void theSimulatorTakesANotifyIdOf1To2147483647() throws Exception {
        ObjectNode auth = golden("auth").put("timestamp", System.currentTimeMillis());
        String token = post("/message/auth", auth, null).get("authToken").asText();
        // doc 362 notifyId: "值范围：1~2147483647"
        for (String ok : List.of("1", "2147483647")) {
            ObjectNode send = golden("send").put("requestId", "nid-" + ok);
            send.set("notifyId", MAPPER.readTree(ok));
            assertAccepted("/message/send", post("/message/send", send, token));
        }
        for (String wrong : List.of("0", "-5", "2147483648", "\"12\"", "1.5")) {
            ObjectNode send = golden("send").put("requestId", "nid-bad-" + wrong.length());
            send.set("notifyId", MAPPER.readTree(wrong));
            JsonNode answer = post("/message/send", send, token);
            assertEquals(10055, answer.path("result").asInt(-1), wrong + ": " + answer);
            ObjectNode list = golden("saveListPayload");
            list.set("notifyId", MAPPER.readTree(wrong));
            assertEquals(10055, post("/message/saveListPayload", list, token).path("result").asInt(-1), wrong);
        }
    }

    @Test
    void theAdaptersRequestsHaveTheGoldenFieldsTypesAndNesting() throws Exception {
        Credentials plain = AdapterTestSupport.credentials(Channel.VIVO, "vivo-prod", "10004", "key-abc", "s", 1);
        Credentials credentials = new Credentials(plain.appId(), plain.channel(), plain.environment(), plain.name(),
                plain.providerAppId(), plain.appKey(), plain.appSecret(), plain.certificate(), plain.version(),
                (ObjectNode) MAPPER.readTree("{\"receipt_id\":\"1001\"}"), plain.receiptKey());
        VivoAdapter adapter = new VivoAdapter(AdapterTestSupport.settings(Channel.VIVO, running.base(),
                Optional.empty(), Optional.of(URI.create("https://push.example.com/push/receipt/vendor_d"))));
        Notification chat = notification(77, "{\"type\":\"text\",\"title\":\"Alice\",\"body\":\"Are you coming?\","
                + "\"badge\":\"+1\",\"ext\":{\"conversation\":\"10001\"},\"show_end_time\":"
                + (Instant.now().getEpochSecond() + 86400) + ",\"channels\":{\"vendor_d\":{\"click_action\":\"intent\","
                + "\"intent\":\"com.example.chat/.ChatActivity;S.conversation=10001\",\"push_mode\":0}}}");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, chat, targetedDeliveries("vivo-prod", "r1")));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials, chat, targetedDeliveries("vivo-prod", "r2", "r3")));

        assertSameShape(golden("auth"), sent("/message/auth"), "auth");
        assertSameShape(golden("send"), sent("/message/send"), "send");
        assertSameShape(golden("saveListPayload"), sent("/message/saveListPayload"), "saveListPayload");
        assertSameShape(golden("pushToList"), sent("/message/pushToList"), "pushToList");
    }

    /** The body of the first request the simulator recorded on {@code path}. */
    static JsonNode sent(String path) throws IOException {
        return MAPPER.readTree(recorded(simulator, path::equals).get(0).body());
    }

    /** Objects whose keys are data, not field names: only their values' types are compared. */
    static final Set<String> MAPS = Set.of("send.clientCustomMap", "saveListPayload.clientCustomMap");

    /** Same field names at every level, same JSON types (integer, string, object, array...); values may differ. */
    static void assertSameShape(JsonNode golden, JsonNode ours, String where) {
        assertEquals(kind(golden), kind(ours), where + ": type");
        if (MAPS.contains(where)) {
            ours.forEach(value -> assertEquals(kind(golden.elements().next()), kind(value), where + ": value type"));
        } else if (golden.isObject()) {
            assertEquals(new TreeSet<>(names(golden)), new TreeSet<>(names(ours)), where + ": fields");
            for (String name : names(golden)) {
                assertSameShape(golden.get(name), ours.get(name), where + "." + name);
            }
        } else if (golden.isArray()) {
            assertFalse(ours.isEmpty(), where + ": empty array");
            for (JsonNode element : ours) {
                assertSameShape(golden.get(0), element, where + "[]");
            }
        }
    }

    private static String kind(JsonNode node) {
        return node.isIntegralNumber() ? "integer" : node.getNodeType().name().toLowerCase();
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}

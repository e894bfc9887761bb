package io.imcore.pushworker.channel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.simulators.ProviderSimulator;
import io.imcore.simulators.Recorder;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What the adapter tests set up alike: settings pointing at a simulator ({@link InJvmSimulator}), credentials,
 * notifications and deliveries, and reading back what the simulator recorded. Our app is always {@code app1}.
 */
public final class AdapterTestSupport {

    public static final ObjectMapper JSON = new ObjectMapper();

    private AdapterTestSupport() {}

    /** app1's receipt key: its callback URLs are {@code <receipt-url>/app1?key=rk}. */
    public static final String RECEIPT_KEY = "rk";

    /** Both environments on the simulator at {@code base}; 5 s request timeout, 4 concurrent requests. */
    public static ChannelSettings settings(Channel channel, URI base, Optional<URI> authUrl,
            Optional<URI> receiptUrl) {
        return new ChannelSettings(channel, base, base, authUrl, receiptUrl, Optional.empty(), Duration.ofSeconds(5),
                4);
    }

    /** Production credentials of app1 with no certificate file; a new version is a new adapter cache key. */
    public static Credentials credentials(Channel channel, String name, String providerAppId, String appKey,
            String appSecret, long version) {
        return new Credentials("app1", channel, 1, name, providerAppId, appKey, appSecret, "", version,
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), RECEIPT_KEY);
    }

    public static Notification notification(long taskId, String json) throws Exception {
        return new Notification(taskId, "app1", (ObjectNode) JSON.readTree(json));
    }

    /** A text message with a +1 badge and no per-channel settings. */
    public static Notification textNotification(long taskId, String title, String body) {
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", title).put("body", body)
                .put("badge", "+1");
        m.putObject("channels");
        return new Notification(taskId, "app1", m);
    }

    /** One delivery per token, without target or badge. */
    public static List<Delivery> deliveries(String... tokens) {
        return badgedDeliveries(null, tokens);
    }

    /** One delivery per token, each with this badge number. */
    public static List<Delivery> badgedDeliveries(Integer badge, String... tokens) {
        List<Delivery> out = new ArrayList<>();
        for (String token : tokens) {
            out.add(new Delivery(null, token, badge));
        }
        return out;
    }

    /** One delivery per token with its target, as the dispatcher gives them (device ids 1/2, certificate name). */
    public static List<Delivery> targetedDeliveries(String certificateName, String... tokens) {
        List<Delivery> out = new ArrayList<>();
        for (String token : tokens) {
            out.add(new Delivery(new PushBatch.Target(1L, 2L, 1, token, certificateName, 1, null), token, null));
        }
        return out;
    }

    /** The requests the simulator recorded whose path passes {@code path}, oldest first. */
    public static List<Recorder.Request> recorded(ProviderSimulator simulator, Predicate<String> path) {
        return simulator.recorder().requests().stream().filter(r -> path.test(r.path())).toList();
    }

    /** The fields of a form-encoded body, in their order. */
    public static Map<String, String> form(String body) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            fields.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return fields;
    }
}

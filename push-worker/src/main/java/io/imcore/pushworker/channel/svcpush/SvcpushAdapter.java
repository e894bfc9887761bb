package io.imcore.pushworker.channel.svcpush;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.context.CallerChecks;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * svcpush: our own live connection. One call of message-service's {@code POST /internal/live/notify} (platform key)
 * hands the notification to the replicas holding the devices' sockets (docs/live-protocol.md). A device without a
 * live connection is answered {@link Outcome#rejected} with reason {@value #OFFLINE}: the dispatcher sends it to its
 * OS channel under the combined strategy; nothing is unbound. The device's {@code notification_ack} arrives later as
 * a receipt (push.receipts) and counts as received.
 */
public class SvcpushAdapter implements ChannelAdapter {

    public static final String OFFLINE = "offline";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ChannelSettings settings;
    private final String internalKey;
    private final HttpClient http;

    public SvcpushAdapter(ChannelSettings settings, String internalKey) {
        this.settings = settings;
        this.internalKey = internalKey;
        this.http = VendorHttp.jdkTrustClient(settings);
    }

    @Override
    public Channel channel() {
        return Channel.SVCPUSH;
    }

    @Override
    public int maxTargetsPerRequest() {
        return 500; // the endpoint's limit
    }

    @Override
    public List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(settings.baseUrl() + "/internal/live/notify"))
                    .timeout(settings.requestTimeout())
                    .header("content-type", "application/json")
                    .header(CallerChecks.INTERNAL_KEY, internalKey)
                    .POST(HttpRequest.BodyPublishers.ofString(body(notification, deliveries)))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return all(deliveries, Outcome.retry("http " + response.statusCode()));
            }
            JsonNode envelope = MAPPER.readTree(response.body());
            if (envelope.path("code").asInt() != 200) {
                return all(deliveries, Outcome.retry("code " + envelope.path("code").asInt() + ": "
                        + envelope.path("message").asText()));
            }
            List<Outcome> outcomes = new ArrayList<>(Collections.nCopies(deliveries.size(),
                    Outcome.retry("not in the answer")));
            for (JsonNode index : envelope.path("data").path("delivered")) {
                outcomes.set(index.asInt(), Outcome.ACCEPTED);
            }
            for (JsonNode index : envelope.path("data").path("offline")) {
                outcomes.set(index.asInt(), Outcome.rejected(OFFLINE));
            }
            return outcomes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return all(deliveries, Outcome.retry("interrupted"));
        } catch (Exception e) {
            return all(deliveries, Outcome.retry(e.getClass().getSimpleName()));
        }
    }

    private static String body(Notification notification, List<Delivery> deliveries) throws Exception {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("app_id", notification.appId());
        body.put("task_id", notification.taskId());
        ObjectNode shown = body.putObject("notification");
        shown.put("type", notification.type());
        shown.put("title", notification.title());
        shown.put("body", notification.body());
        if (notification.bigText() != null) {
            shown.put("big_text", notification.bigText());
        }
        if (notification.attachmentUrl() != null) {
            shown.put("attachment_url", notification.attachmentUrl());
        }
        if (!notification.ext().isEmpty()) {
            shown.set("ext", notification.ext());
        }
        ArrayNode devices = body.putArray("devices");
        for (Delivery delivery : deliveries) {
            ObjectNode device = devices.addObject();
            device.put("user_id", delivery.target().userId());
            device.put("device_sn", delivery.target().deviceSn());
            if (delivery.badge() != null) {
                device.put("badge", delivery.badge());
            }
        }
        return MAPPER.writeValueAsString(body);
    }

    private static List<Outcome> all(List<Delivery> deliveries, Outcome outcome) {
        return Collections.nCopies(deliveries.size(), outcome);
    }
}

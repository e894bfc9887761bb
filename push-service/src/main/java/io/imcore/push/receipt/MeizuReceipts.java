package io.imcore.push.receipt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Meizu receipts (docs/channels/meizu.md): a form POST with {@code cb} (JSON keyed by
 * {@code <msgId>-<type>}, each {@code {"param": "<callback.param>", "type": 1|2, "targets": [pushId, ...]}}) and
 * {@code access_token}. Type 1 is a delivery, type 2 a click (left out). {@code param} is our task id. A body that is
 * the {@code cb} JSON itself is accepted as well.
 */
public class MeizuReceipts implements ReceiptFormat {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public MeizuReceipts() {}

    @Override
    public Channel channel() {
        return Channel.MEIZU;
    }

    @Override
    public List<TokenReceipt> parse(String contentType, String body) {
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("vendor_e receipt: empty body");
        }
        String cb = body.stripLeading().startsWith("{") ? body : formField(body, "cb");
        if (cb == null) {
            throw new IllegalArgumentException("vendor_e receipt: no cb field");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(cb);
        } catch (IOException e) {
            throw new IllegalArgumentException("vendor_e receipt: cb is not JSON", e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("vendor_e receipt: cb is not a JSON object");
        }
        List<TokenReceipt> receipts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode item = entry.getValue();
            if (!item.isObject() || !item.path("targets").isArray()) {
                throw new IllegalArgumentException("vendor_e receipt: entry " + entry.getKey() + " has no targets");
            }
            String type = item.has("type") ? item.get("type").asText() : typeOfKey(entry.getKey());
            if (!"1".equals(type)) {
                continue; // clicks and unknown types are not deliveries
            }
            Long taskId = taskId(item.path("param").asText(""));
            if (taskId == null) {
                continue;
            }
            for (JsonNode target : item.get("targets")) {
                String token = target.asText().trim();
                if (!token.isEmpty()) {
                    receipts.add(new TokenReceipt(taskId, token));
                }
            }
        }
        return receipts;
    }

    private static String typeOfKey(String key) {
        int dash = key.lastIndexOf('-');
        return dash < 0 ? "" : key.substring(dash + 1);
    }

    private static String formField(String body, String name) {
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            try {
                if (URLDecoder.decode(key, StandardCharsets.UTF_8).equals(name)) {
                    return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("vendor_e receipt: malformed form body", e);
            }
        }
        return null;
    }

    private static Long taskId(String param) {
        try {
            return Long.parseLong(param.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

package io.imcore.push.receipt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Xiaomi receipts: form {@code data=<JSON>}, the JSON a map of message id to
 * {@code {"param","type","targets"}}; type 1 is delivered, targets the comma-joined regIds, param the task id.
 */
public class XiaomiReceipts implements ReceiptFormat {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Channel channel() {
        return Channel.XIAOMI;
    }

    @Override
    public List<TokenReceipt> parse(String contentType, String body) {
        String data = null;
        if (body != null) {
            String trimmed = body.trim();
            if (trimmed.startsWith("{")) {
                data = trimmed; // tolerate the JSON posted bare
            } else {
                for (String pair : trimmed.split("&")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0 && pair.substring(0, eq).equals("data")) {
                        data = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                    }
                }
            }
        }
        if (data == null) {
            throw new IllegalArgumentException("not a vendor_b receipt body: no data field");
        }
        JsonNode map;
        try {
            map = JSON.readTree(data);
        } catch (Exception e) {
            throw new IllegalArgumentException("not a vendor_b receipt body", e);
        }
        if (map == null || !map.isObject()) {
            throw new IllegalArgumentException("not a vendor_b receipt body: data is not an object");
        }
        List<TokenReceipt> out = new ArrayList<>();
        for (Iterator<JsonNode> it = map.elements(); it.hasNext(); ) {
            JsonNode r = it.next();
            if (!r.isObject() || !r.has("targets")) {
                throw new IllegalArgumentException("not a vendor_b receipt body: an entry without targets");
            }
            Long task = HuaweiReceipts.taskId(r.path("param").asText(null));
            if (task == null || r.path("type").asInt(-1) != 1) {
                continue;
            }
            for (String t : r.path("targets").asText("").split(",")) {
                if (!t.isBlank()) {
                    out.add(new TokenReceipt(task, t.trim()));
                }
            }
        }
        return out;
    }
}

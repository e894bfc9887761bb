package io.imcore.push.receipt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * vivo delivery receipts (docs/channels/vivo.md): a JSON object keyed by vivo's taskId, each value
 * {@code {"param": "<callback.param>", "targets": "regId1,regId2"}}. vivo calls back for delivered messages only;
 * {@code param} is our task id (set by the adapter). Entries whose param is not a task id are left out.
 */
public class VivoReceipts implements ReceiptFormat {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public VivoReceipts() {}

    @Override
    public Channel channel() {
        return Channel.VIVO;
    }

    @Override
    public List<TokenReceipt> parse(String contentType, String body) {
        JsonNode root;
        try {
            root = body == null ? null : MAPPER.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("vendor_d receipt: not JSON", e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("vendor_d receipt: not a JSON object");
        }
        List<TokenReceipt> receipts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode item = entry.getValue();
            JsonNode targets = item.get("targets");
            if (!item.isObject() || targets == null || !(targets.isTextual() || targets.isArray())) {
                throw new IllegalArgumentException("vendor_d receipt: entry " + entry.getKey() + " has no targets");
            }
            Long taskId = taskId(item.path("param").asText(""));
            if (taskId == null) {
                continue;
            }
            if (targets.isArray()) {
                for (JsonNode target : targets) {
                    add(receipts, taskId, target.asText());
                }
            } else {
                for (String target : targets.asText().split(",")) {
                    add(receipts, taskId, target);
                }
            }
        }
        return receipts;
    }

    private static void add(List<TokenReceipt> receipts, long taskId, String token) {
        String trimmed = token.trim();
        if (!trimmed.isEmpty()) {
            receipts.add(new TokenReceipt(taskId, trimmed));
        }
    }

    private static Long taskId(String param) {
        try {
            return Long.parseLong(param.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

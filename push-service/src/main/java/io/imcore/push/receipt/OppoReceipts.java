package io.imcore.push.receipt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.util.ArrayList;
import java.util.List;

/**
 * OPPO receipts: a JSON array of {@code {"messageId","registrationIds","param","eventType",...}};
 * eventType {@code push_arrive} is delivered, registrationIds comma-joined, param the task id.
 */
public class OppoReceipts implements ReceiptFormat {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Channel channel() {
        return Channel.OPPO;
    }

    @Override
    public List<TokenReceipt> parse(String contentType, String body) {
        JsonNode list;
        try {
            list = JSON.readTree(body == null ? "" : body);
        } catch (Exception e) {
            throw new IllegalArgumentException("not a vendor_c receipt body", e);
        }
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("not a vendor_c receipt body: not a JSON array");
        }
        List<TokenReceipt> out = new ArrayList<>();
        for (JsonNode r : list) {
            Long task = HuaweiReceipts.taskId(r.path("param").asText(null));
            if (task == null || !"push_arrive".equals(r.path("eventType").asText())) {
                continue;
            }
            for (String t : r.path("registrationIds").asText("").split(",")) {
                if (!t.isBlank()) {
                    out.add(new TokenReceipt(task, t.trim()));
                }
            }
        }
        return out;
    }
}

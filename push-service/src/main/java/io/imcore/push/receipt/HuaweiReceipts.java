package io.imcore.push.receipt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.util.ArrayList;
import java.util.List;

/**
 * Huawei Push Kit receipts: JSON {@code {"statuses":[{"biTag","token","status",...}]}}; status 0 is
 * delivered; biTag is the task id the adapter set.
 */
public class HuaweiReceipts implements ReceiptFormat {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Channel channel() {
        return Channel.HUAWEI;
    }

    @Override
    public List<TokenReceipt> parse(String contentType, String body) {
        JsonNode statuses;
        try {
            statuses = JSON.readTree(body == null ? "" : body).get("statuses");
        } catch (Exception e) {
            throw new IllegalArgumentException("not a vendor_a receipt body", e);
        }
        if (statuses == null || !statuses.isArray()) {
            throw new IllegalArgumentException("not a vendor_a receipt body: no statuses array");
        }
        List<TokenReceipt> out = new ArrayList<>();
        for (JsonNode s : statuses) {
            Long task = taskId(s.path("biTag").asText(null));
            String token = s.path("token").asText(null);
            if (task != null && token != null && !token.isEmpty() && s.path("status").isIntegralNumber()
                    && s.path("status").asInt() == 0) {
                out.add(new TokenReceipt(task, token));
            }
        }
        return out;
    }

    /** The task id from a callback parameter, or null when it is not one of ours. */
    static Long taskId(String param) {
        if (param == null || param.isEmpty() || param.length() > 19) {
            return null;
        }
        try {
            return Long.parseLong(param);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

package io.imcore.push.receipt;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.util.List;

/**
 * One provider's delivery-receipt callback (the provider calls {@code POST /push/receipt/<channel>} on push-service
 * when a device got a notification; push-worker's adapter asked for it with the task id as the callback parameter).
 * A format parses the provider's body; counting (exactly once per task and device) is done once, by the caller.
 */
public interface ReceiptFormat {

    Channel channel();

    /**
     * The receipts in a callback body: each names the task (from the callback parameter the adapter set) and the
     * provider token that was delivered to. Receipts that do not report a delivery (failed, unknown status) are
     * left out.
     *
     * @throws IllegalArgumentException when the body is not this provider's receipt format
     */
    List<TokenReceipt> parse(String contentType, String body);
}

package io.imcore.push.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import java.util.List;

/**
 * A validated {@code POST /push/notify} body (api.md 4.5.2), normalized: defaults filled in, {@code ups} expanded.
 *
 * @param requestId      setting.request_id, or null when absent or empty (no de-duplication)
 * @param osSequence     setting.ospush_sequence with {@code ups} expanded to the five Android providers, duplicates
 *                       dropped, order kept; never empty
 * @param message        the normalized message object that travels in the channel records (docs/push-notify.md)
 * @param showBeginTime  epoch seconds, or null (display at once)
 * @param showEndTime    epoch seconds, or null (no end)
 * @param attachmentUrl  the image URL to check for size and reachability, or null when there is nothing to fetch
 */
public record PushRequest(
        Audience audience,
        String requestId,
        Strategy strategy,
        List<Channel> osSequence,
        ObjectNode message,
        Long showBeginTime,
        Long showEndTime,
        String attachmentUrl) {}

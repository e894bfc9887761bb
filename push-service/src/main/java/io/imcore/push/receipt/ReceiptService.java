package io.imcore.push.receipt;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.push.Channel;
import io.imcore.common.push.Receipts;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/**
 * Checks a provider's receipt callback against its app's receipt key, parses it and counts each delivery once,
 * within that app only: a task's per task and device that push-worker sent (common {@link Receipts}), an offline
 * push's (task id {@code -msg_id}) per message and device ({@link OfflineReceipts}).
 */
@ApplicationScoped
public class ReceiptService {

    private final Database database;
    private final ReceiptFormats formats;
    private final ReceiptKeyStore keys;

    public ReceiptService(Database database, ReceiptFormats formats, ReceiptKeyStore keys) {
        this.database = database;
        this.formats = formats;
        this.keys = keys;
    }

    int count(String channelName, String appId, String givenKey, String contentType, String body) {
        // an unknown app, an app without a key and a wrong key get the same answer: the URL tells nothing
        String key = database.read(c -> keys.find(c, appId)).orElse("");
        if (key.isEmpty() || givenKey == null || !MessageDigest.isEqual(key.getBytes(StandardCharsets.UTF_8),
                givenKey.getBytes(StandardCharsets.UTF_8))) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "key missing or wrong");
        }
        Channel channel = Channel.fromWireName(channelName).orElseThrow(() ->
                new ApiException(ErrorCode.BAD_PARAMETER, "channel: unknown channel " + channelName));
        ReceiptFormat format = formats.of(channel).orElseThrow(() ->
                new ApiException(ErrorCode.BAD_PARAMETER, "channel: " + channelName + " has no delivery receipts"));
        List<Receipts.TokenReceipt> receipts;
        try {
            receipts = format.parse(contentType, body == null ? "" : body);
        } catch (IllegalArgumentException e) {
            throw new ApiException(ErrorCode.BAD_PARAMETER, "body: not a " + channelName + " receipt: "
                    + e.getMessage());
        }
        // a task's receipts carry its id; an offline push's carry -msg_id (docs/offline-push.md): each is one
        // statement of its own, so the task counters are locked only for theirs
        List<Receipts.TokenReceipt> tasks = receipts.stream().filter(r -> r.taskId() > 0).toList();
        List<Receipts.TokenReceipt> offline = receipts.stream().filter(r -> r.taskId() < 0).toList();
        int counted = tasks.isEmpty() ? 0 : database.autoCommit(c -> Receipts.countTokens(c, appId, channel, tasks));
        if (!offline.isEmpty()) {
            counted += database.autoCommit(c -> OfflineReceipts.count(c, appId, channel, offline));
        }
        return counted;
    }
}

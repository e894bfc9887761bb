package io.imcore.push.receipt;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.common.store.GroupCommitter;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * Checks a provider's receipt callback against its app's receipt key, parses it and counts each delivery once,
 * within that app only: a task's per task and device that push-worker sent (common {@link Receipts}), an offline
 * push's (task id {@code -msg_id}) per message and device ({@link OfflineReceipts}).
 */
@ApplicationScoped
public class ReceiptService {

    /** Callbacks counted in one statement at most (a callback carries up to a provider's batch of receipts). */
    private static final int MAX_CALLBACKS_PER_COMMIT = 64;

    private final Database database;
    private final ReceiptFormats formats;
    private final ReceiptKeyStore keys;
    /** Offline receipts of the callbacks that arrive while a commit runs go in the next one, in one statement. */
    private final GroupCommitter<OfflineReceipts.Callback, Integer> offlineCounts;

    public ReceiptService(Database database, ReceiptFormats formats, ReceiptKeyStore keys, MeterRegistry registry) {
        this.database = database;
        this.formats = formats;
        this.keys = keys;
        // every item is its own key: the statement stamps a trace row once and sums the counts per app and channel
        this.offlineCounts = new GroupCommitter<>("offline-receipt-commit", database, MAX_CALLBACKS_PER_COMMIT,
                callback -> new Object(), OfflineReceipts::count,
                DistributionSummary.builder("imcore.offline_push.receipt.commit.batch")
                        .description("provider receipt callbacks of offline pushes counted per statement")
                        .register(registry));
    }

    void start(@Observes StartupEvent event) {
        offlineCounts.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        offlineCounts.stop();
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
            try {
                counted += offlineCounts.submit(new OfflineReceipts.Callback(appId, channel, offline)).join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        return counted;
    }
}

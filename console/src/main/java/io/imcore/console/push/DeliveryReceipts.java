package io.imcore.console.push;

import java.util.Set;

/**
 * Which channels' {@code received} is measured. APNs and FCM have no delivery callback (docs/channels/apns.md and
 * fcm.md, docs/push-worker.md "received"), so ios and cloud show "not measured" rather than a false 0; the others
 * count provider receipts or, for svcpush, the device's notification_ack.
 */
public final class DeliveryReceipts {

    public static final String NOT_MEASURED = "not measured";
    private static final Set<String> UNMEASURED = Set.of("ios", "cloud");

    private DeliveryReceipts() {
    }

    public static boolean measured(String channel) {
        return !UNMEASURED.contains(channel);
    }
}

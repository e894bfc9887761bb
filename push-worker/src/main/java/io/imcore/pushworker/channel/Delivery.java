package io.imcore.pushworker.channel;

import io.imcore.pushcontract.PushBatch;

/**
 * One target of a send: the device and the provider token to send to.
 *
 * @param target the record's target (device ids; for a svcpush fallback the token comes from its fallback route)
 * @param token  the provider token (null on svcpush)
 * @param badge  the device's badge number after this notification, for channels that carry a badge (APNs, FCM,
 *               Huawei, svcpush); null otherwise. The worker keeps the counter (push_devices.badge).
 */
public record Delivery(PushBatch.Target target, String token, Integer badge) {}

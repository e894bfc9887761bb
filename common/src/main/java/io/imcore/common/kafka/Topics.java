package io.imcore.common.kafka;

/**
 * Every Kafka topic of the system: who writes it, who reads it (consumer groups), and its settings. The brokers'
 * settings (partitions, cleanup policy, retention) are applied where each environment creates its topics:
 * {@code deploy/k8s/overlays/prod/kafka.yaml} (prod's brokers create no topic by themselves; 3 replicas, 2 in sync;
 * the partitions below are prod's) and {@code deploy/local/up.sh} (6 partitions each; the compaction below, and
 * push.expansion's retention); the dev overlay's broker creates them on first use. The Reactive Messaging feeds
 * name theirs in their service's {@code application.properties} ({@code mp.messaging.incoming.<feed>.topic}).
 */
public final class Topics {

    /**
     * auth-service's apps, users and devices ({@code AuthEvent}), through its outbox; read by the auth views
     * ({@code <application name>.auth-view}), push-service's devices ({@code push-service.devices}) and the webhooks
     * ({@code message-service.webhooks-auth}). Compacted: a new reader rebuilds its view from offset 0; 6 partitions.
     */
    public static final String AUTH_EVENTS = "auth.events";

    /**
     * message-service's live connections per device ({@code PresenceEvent}), through its outbox; read by push-service
     * ({@code push-service.presence}). Compacted: the latest record per device is its presence; 6 partitions.
     */
    public static final String PRESENCE_EVENTS = "presence.events";

    /**
     * message-service's stored messages for offline push ({@code MessageEvent}), through its outbox; read by
     * push-service ({@code push-service.offline-push}). Retention 1 day in prod; 12 partitions.
     */
    public static final String MESSAGE_EVENTS = "message.events";

    /**
     * Push task finishes and failed offline pushes ({@code PushEvent}), through the push database's outbox; read by
     * the webhooks ({@code message-service.webhooks-push}). Retention 1 day in prod; 12 partitions.
     */
    public static final String PUSH_EVENTS = "push.events";

    /**
     * svcpush devices' acknowledgements ({@code PushReceipt}), through message-service's outbox; read by push-worker
     * ({@code push-worker.receipts}). Retention 3 days in prod; 12 partitions.
     */
    public static final String PUSH_RECEIPTS = "push.receipts";

    /**
     * push-service's expansion checkpoints ({@code ExpansionCheckpoint}, key: task id), written in the transaction of
     * a step's channel records and read back by push-service on resume (no group). Compacted and deleted after 7
     * days; 12 partitions. A task's partition is its id modulo the partition count, which must not change while
     * tasks are being expanded.
     */
    public static final String PUSH_EXPANSION = "push.expansion";

    /**
     * The channel topics, {@code push.<channel>} (the channel's wire name): push-service's channel records
     * ({@code PushBatch}), written by its {@code ChannelRecordWriter} compressed as {@code im.push.fanout.compression}
     * says; read by push-worker ({@code push-worker.<channel>}). Retention 3 days in prod; 12 partitions (the most
     * push-worker replicas that share a channel).
     */
    public static final String CHANNEL_PREFIX = "push.";

    private Topics() {}
}

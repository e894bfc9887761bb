package io.imcore.pushcontract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The eight push channels (decisions.md section 5), with the certificate provider number of api.md 4.5.1 where the
 * channel has one (svcpush is our own live connection: no provider, no certificate). Each has its Kafka topic.
 * The constants are named for the provider; the API's name for the channel is the wire name.
 */
public enum Channel {
    APNS("ios", 1, "IOS"),
    FCM("cloud", 7, "CLOUD"),
    HUAWEI("vendor_a", 2, "VENDOR_A"),
    XIAOMI("vendor_b", 3, "VENDOR_B"),
    OPPO("vendor_c", 6, "VENDOR_C"),
    VIVO("vendor_d", 5, "VENDOR_D"),
    MEIZU("vendor_e", 4, "VENDOR_E"),
    SVCPUSH("svcpush", 0, "SVCPUSH");

    /** Looked up once per token row and per routed device in an expansion: no copy of values(), no new strings. */
    private static final Map<String, Channel> BY_WIRE_NAME =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(Channel::wireName, Function.identity()));

    private final String wireName;
    private final int provider;
    /** The constant's name before the constants were named for the providers: stored push requests hold it. */
    private final String storedName;

    Channel(String wireName, int provider, String storedName) {
        this.wireName = wireName;
        this.provider = provider;
        this.storedName = storedName;
    }

    /** The name used in the API, config keys, topics, metrics and stored push requests. */
    @JsonValue
    public String wireName() {
        return wireName;
    }

    public String topic() {
        return "push." + wireName();
    }

    /** push-worker's consumer group for the channel's topic (docs/push-worker.md); its lag is read by push-service. */
    public String workerGroup() {
        return "push-worker." + wireName();
    }

    /** api.md 4.5.1 provider number; 0 for svcpush. */
    public int provider() {
        return provider;
    }

    public boolean isOsChannel() {
        return this != SVCPUSH;
    }

    /**
     * Whether its {@code received} counts anything: APNs and FCM send no delivery receipts (docs/channels/apns.md,
     * fcm.md); the phone makers call back and svcpush devices acknowledge (docs/push-worker.md "received").
     */
    public boolean reportsDeliveries() {
        return this != APNS && this != FCM;
    }

    public static Optional<Channel> fromWireName(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(BY_WIRE_NAME.get(name));
    }

    /** Reads a stored push request's channel: its wire name, or the constant name requests were stored with before. */
    @JsonCreator
    public static Channel fromStored(String name) {
        return fromWireName(name).orElseGet(() -> Arrays.stream(values())
                .filter(channel -> channel.storedName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown channel " + name)));
    }

    public static Optional<Channel> fromProvider(int provider) {
        for (Channel channel : values()) {
            if (channel.provider == provider && channel != SVCPUSH) {
                return Optional.of(channel);
            }
        }
        return Optional.empty();
    }
}

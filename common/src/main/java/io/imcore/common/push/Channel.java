package io.imcore.common.push;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The eight push channels (decisions.md section 5), with the certificate provider number of api.md 4.5.1 where the
 * channel has one (svcpush is our own live connection: no provider, no certificate). Each has its Kafka topic.
 */
public enum Channel {
    IOS(1),
    CLOUD(7),
    VENDOR_A(2),
    VENDOR_B(3),
    VENDOR_C(6),
    VENDOR_D(5),
    VENDOR_E(4),
    SVCPUSH(0);

    /** Looked up once per token row and per routed device in an expansion: no copy of values(), no new strings. */
    private static final Map<String, Channel> BY_WIRE_NAME =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(Channel::wireName, Function.identity()));

    private final int provider;
    private final String wireName;

    Channel(int provider) {
        this.provider = provider;
        this.wireName = name().toLowerCase(Locale.ROOT);
    }

    /** The name used in the API, config keys, topics and metrics. */
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

    public static Optional<Channel> fromWireName(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(BY_WIRE_NAME.get(name));
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

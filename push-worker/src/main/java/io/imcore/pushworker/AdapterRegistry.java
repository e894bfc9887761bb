package io.imcore.pushworker;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.apns.ApnsAdapter;
import io.imcore.pushworker.channel.fcm.FcmAdapter;
import io.imcore.pushworker.channel.huawei.HuaweiAdapter;
import io.imcore.pushworker.channel.meizu.MeizuAdapter;
import io.imcore.pushworker.channel.oppo.OppoAdapter;
import io.imcore.pushworker.channel.svcpush.SvcpushAdapter;
import io.imcore.pushworker.channel.vivo.VivoAdapter;
import io.imcore.pushworker.channel.xiaomi.XiaomiAdapter;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * One adapter per channel, built from {@code im.push.worker.channel.<channel>.*}. Every replica has all eight, whatever
 * channels it consumes: a svcpush batch falls back to the OS channels.
 */
@ApplicationScoped
public class AdapterRegistry {

    private final Map<Channel, ChannelAdapter> adapters = new EnumMap<>(Channel.class);

    public AdapterRegistry(WorkerConfig config, @ConfigProperty(name = "im.internal-key") Optional<String> internalKey) {
        for (Channel channel : Channel.values()) {
            ChannelSettings settings = settings(channel, config);
            adapters.put(channel, switch (channel) {
                case APNS -> new ApnsAdapter(settings);
                case FCM -> new FcmAdapter(settings);
                case HUAWEI -> new HuaweiAdapter(settings);
                case XIAOMI -> new XiaomiAdapter(settings);
                case OPPO -> new OppoAdapter(settings);
                case VIVO -> new VivoAdapter(settings);
                case MEIZU -> new MeizuAdapter(settings);
                case SVCPUSH -> new SvcpushAdapter(settings, internalKey.orElse(""));
            });
        }
    }

    public ChannelAdapter adapter(Channel channel) {
        return adapters.get(channel);
    }

    static ChannelSettings settings(Channel channel, WorkerConfig config) {
        WorkerConfig.ChannelConfig c = config.channel().get(channel.wireName());
        if (c == null) {
            throw new IllegalStateException("im.push.worker.channel." + channel.wireName() + ".base-url is not set");
        }
        return new ChannelSettings(channel, c.baseUrl(), c.developmentBaseUrl().orElse(c.baseUrl()), c.authUrl(),
                c.receiptUrl(), c.trustCertificate(), c.requestTimeout(), c.maxConcurrentRequests());
    }

    void close(@Observes ShutdownEvent event) {
        adapters.values().forEach(ChannelAdapter::close);
    }
}

package io.imcore.pushworker.channel.huawei;

import io.imcore.common.push.Channel;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import java.util.Collections;
import java.util.List;

/** UNFINISHED: the vendor_a adapter; it does not call its provider yet and answers every target with a retry. */
public class HuaweiAdapter implements ChannelAdapter {

    private final ChannelSettings settings;

    public HuaweiAdapter(ChannelSettings settings) {
        this.settings = settings;
    }

    @Override
    public Channel channel() {
        return Channel.VENDOR_A;
    }

    @Override
    public int maxTargetsPerRequest() {
        return 1000;
    }

    @Override
    public List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        return Collections.nCopies(deliveries.size(), Outcome.retry("adapter not written yet"));
    }
}

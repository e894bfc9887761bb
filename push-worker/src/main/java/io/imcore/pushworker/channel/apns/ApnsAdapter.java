package io.imcore.pushworker.channel.apns;

import io.imcore.common.push.Channel;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import java.util.Collections;
import java.util.List;

/** UNFINISHED: the ios adapter; it does not call its provider yet and answers every target with a retry. */
public class ApnsAdapter implements ChannelAdapter {

    private final ChannelSettings settings;

    public ApnsAdapter(ChannelSettings settings) {
        this.settings = settings;
    }

    @Override
    public Channel channel() {
        return Channel.IOS;
    }

    @Override
    public int maxTargetsPerRequest() {
        return 1;
    }

    @Override
    public List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        return Collections.nCopies(deliveries.size(), Outcome.retry("adapter not written yet"));
    }
}

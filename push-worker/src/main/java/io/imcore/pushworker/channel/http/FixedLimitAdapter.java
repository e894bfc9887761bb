package io.imcore.pushworker.channel.http;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelAdapter;

/**
 * An adapter whose channel and per-send delivery limit are fixed when it is built: the common part of
 * {@link BatchAdapter} and {@link FanOutAdapter}.
 */
public abstract class FixedLimitAdapter implements ChannelAdapter {

    private final Channel channel;
    private final int maxTargets;

    protected FixedLimitAdapter(Channel channel, int maxTargets) {
        this.channel = channel;
        this.maxTargets = maxTargets;
    }

    @Override
    public final Channel channel() {
        return channel;
    }

    @Override
    public final int maxTargetsPerRequest() {
        return maxTargets;
    }
}

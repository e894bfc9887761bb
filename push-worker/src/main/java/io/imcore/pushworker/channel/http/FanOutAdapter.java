package io.imcore.pushworker.channel.http;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Base of the adapters whose provider takes one token per request (APNs, FCM): the channel, and a send call that
 * fans out one request per delivery, up to {@value #MAX_FAN_OUT} of them, and waits for them all.
 */
public abstract class FanOutAdapter extends FixedLimitAdapter {

    private static final int MAX_FAN_OUT = 500;

    protected FanOutAdapter(Channel channel) {
        super(channel, MAX_FAN_OUT);
    }

    /** Each request's outcome, in the deliveries' order, once all are done (each completes within its timeout). */
    protected static List<Outcome> joinAll(List<CompletableFuture<Outcome>> requests) {
        List<Outcome> outcomes = new ArrayList<>(requests.size());
        for (CompletableFuture<Outcome> request : requests) {
            outcomes.add(request.join());
        }
        return outcomes;
    }
}

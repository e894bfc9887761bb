package io.imcore.pushworker.channel.http;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.Function;

/**
 * Base of the adapters whose provider takes a batch of tokens in one request (Huawei, Xiaomi, OPPO): the
 * channel, the per-request limit, one {@link VendorHttp#client HTTP client} with the form POST these providers take,
 * and the edges of the {@link #send} contract, so that a subclass only builds, sends and classifies its provider's
 * request.
 */
public abstract class BatchAdapter extends FixedLimitAdapter {

    /** The content type of Xiaomi's and OPPO's forms (Huawei's token endpoint gets it without the charset). */
    protected static final String FORM_UTF8 = "application/x-www-form-urlencoded; charset=UTF-8";

    protected final ChannelSettings settings;
    protected final HttpClient http;

    protected BatchAdapter(Channel channel, int maxTargets, ChannelSettings settings) {
        super(channel, maxTargets);
        this.settings = settings;
        this.http = VendorHttp.client(settings);
    }

    /** Nothing to send: no outcomes; more than the provider takes in one request: a caller's bug, thrown. */
    @Override
    public final List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        int n = deliveries.size();
        if (n == 0) {
            return List.of();
        }
        if (n > maxTargetsPerRequest()) {
            throw new IllegalArgumentException("at most " + maxTargetsPerRequest() + " deliveries per send, got " + n);
        }
        return sendBatch(credentials, notification, deliveries);
    }

    /** {@link #send} for 1 to {@link #maxTargetsPerRequest()} deliveries. */
    protected abstract List<Outcome> sendBatch(Credentials credentials, Notification notification,
            List<Delivery> deliveries);

    /** A form POST to {@code uri} within the channel's request timeout; the caller may add headers and builds it. */
    protected final HttpRequest.Builder formPost(URI uri, String contentType, String form) {
        return HttpRequest.newBuilder(uri)
                .timeout(settings.requestTimeout())
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(form));
    }

    /** The provider's answer to the request, its body as a string; {@link Unanswered} when there is none. */
    protected final HttpResponse<String> exchange(HttpRequest request) throws Unanswered {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the interrupt stays visible to the caller
            throw new Unanswered(null);
        } catch (Exception e) {
            throw new Unanswered(e);
        }
    }

    /** No answer to a request: the thread was interrupted, or the send failed (I/O, timeout). */
    protected static final class Unanswered extends Exception {

        private final Exception failure;

        private Unanswered(Exception failure) {
            super(failure);
            this.failure = failure;
        }

        /** "interrupted", or the failure described by {@code describeFailure}. */
        public String reason(Function<Exception, String> describeFailure) {
            return failure == null ? "interrupted" : describeFailure.apply(failure);
        }
    }
}

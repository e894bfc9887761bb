package io.imcore.push.notify;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.security.PublicAddresses;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Checks that a push image can be downloaded (else 12004) and is under the size limit (else 12002), api.md 8.
 * HEAD first; when it gives no usable size, a streaming GET that stops reading at the limit. One deadline covers the
 * whole check, redirects included. Blocking: call it from a worker thread, never from the event loop.
 * <p>
 * The URL comes from a tenant, so unless {@code im.push.attachment-private-addresses} allows it, a host that
 * resolves to a loopback, private, link-local (cloud metadata) or other non-public address is refused, at every
 * redirect hop: push-service must not become a probe of the network it runs in.
 */
@ApplicationScoped
public class AttachmentCheck {

    private static final int MAX_REDIRECTS = 5;

    private final HttpClient client;
    private final Duration timeout;
    private final long maxBytes;
    private final boolean privateAddressesAllowed;

    @Inject
    public AttachmentCheck(
            @ConfigProperty(name = "im.push.attachment-timeout", defaultValue = "3S") Duration timeout,
            @ConfigProperty(name = "im.push.attachment-max-bytes", defaultValue = "1048576") long maxBytes,
            @ConfigProperty(name = "im.push.attachment-private-addresses", defaultValue = "false")
            boolean privateAddressesAllowed) {
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.privateAddressesAllowed = privateAddressesAllowed;
        // redirects are followed by hand, so that every hop's address is checked
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout)
                .build();
    }

    /** The URL as a URI when it is an absolute http or https URL with a host (and a valid port), else null. */
    static URI httpUri(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean http = scheme.equals("http") || scheme.equals("https");
            return http && uri.getHost() != null && uri.getPort() <= 65535 ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** Returns when the image is reachable and smaller than the limit; throws 12004 or 12002 otherwise. */
    public void check(String url) {
        URI uri = httpUri(url);
        if (uri == null) {
            throw unreachable("not an http or https URL");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpResponse<Void> head = send(uri, "HEAD", deadline, info -> HttpResponse.BodySubscribers.discarding());
        long size = isSuccess(head.statusCode()) ? contentLength(head.headers()) : -1;
        if (size < 0) {
            // HEAD refused or without a length (chunked, 405 ...): count the body itself
            HttpResponse<Long> get = send(uri, "GET", deadline,
                    info -> new BodySizeSubscriber(isSuccess(info.statusCode()) ? maxBytes : 0));
            if (!isSuccess(get.statusCode())) {
                throw unreachable("HTTP status " + get.statusCode());
            }
            size = get.body();
        }
        if (size >= maxBytes) {
            throw new ApiException(ErrorCode.PUSH_IMAGE_TOO_LARGE,
                    "message.attachment_url: the image must be under " + maxBytes + " bytes");
        }
    }

    /** Sends the request, following up to {@value #MAX_REDIRECTS} redirects, each to a checked address. */
    private <T> HttpResponse<T> send(URI uri, String method, long deadline, HttpResponse.BodyHandler<T> bodyHandler) {
        URI target = uri;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            requirePublicAddress(target);
            HttpResponse<T> response = sendOnce(HttpRequest.newBuilder(target)
                    .method(method, HttpRequest.BodyPublishers.noBody()), deadline, bodyHandler);
            Optional<String> location = response.headers().firstValue("Location");
            if (!isRedirect(response.statusCode()) || location.isEmpty()) {
                return response;
            }
            try {
                target = httpUri(target.resolve(location.get()).toString());
            } catch (IllegalArgumentException e) {
                target = null;
            }
            if (target == null) {
                throw unreachable("redirect to a location that is not an http or https URL");
            }
        }
        throw unreachable("more than " + MAX_REDIRECTS + " redirects");
    }

    private void requirePublicAddress(URI uri) {
        if (privateAddressesAllowed) {
            return;
        }
        boolean allPublic;
        try {
            allPublic = PublicAddresses.allPublic(uri.getHost(), false);
        } catch (UnknownHostException e) {
            throw unreachable("unknown host");
        }
        if (!allPublic) {
            throw unreachable("the host is not a public address");
        }
    }

    private <T> HttpResponse<T> sendOnce(HttpRequest.Builder request, long deadline,
            HttpResponse.BodyHandler<T> bodyHandler) {
        long remainingNanos = deadline - System.nanoTime();
        if (remainingNanos <= 0) {
            throw unreachable("timed out");
        }
        CompletableFuture<HttpResponse<T>> response =
                client.sendAsync(request.timeout(Duration.ofNanos(remainingNanos)).build(), bodyHandler);
        try {
            // the request timeout ends at the response headers; this wait bounds the body too
            return response.get(remainingNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            response.cancel(true);
            throw unreachable("timed out");
        } catch (ExecutionException e) {
            throw unreachable(e.getCause() instanceof HttpTimeoutException ? "timed out" : "connection failed");
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
            throw unreachable("interrupted");
        }
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /** The Content-Length, or -1 when there is none or it is not a number. */
    private static long contentLength(HttpHeaders headers) {
        try {
            return headers.firstValueAsLong("Content-Length").orElse(-1);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean isSuccess(int status) {
        return status >= 200 && status < 300;
    }

    private static ApiException unreachable(String reason) {
        return new ApiException(ErrorCode.PUSH_IMAGE_UNREACHABLE,
                "message.attachment_url: the image cannot be downloaded (" + reason + ")");
    }

    /** Counts body bytes and stops reading (cancels) once {@code limit} bytes have arrived: no more is needed. */
    private static final class BodySizeSubscriber implements HttpResponse.BodySubscriber<Long> {

        private final long limit;
        private final CompletableFuture<Long> size = new CompletableFuture<>();
        private Flow.Subscription subscription;
        private long count;

        BodySizeSubscriber(long limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<Long> getBody() {
            return size;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (limit == 0) {
                stop();
            } else {
                subscription.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                count += buffer.remaining();
            }
            if (count >= limit) {
                stop();
            }
        }

        @Override
        public void onError(Throwable error) {
            size.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            size.complete(count);
        }

        private void stop() {
            subscription.cancel();
            size.complete(count);
        }
    }
}

package io.imcore.pushworker.channel.http;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The provider's last HTTP answer, recorded for the certificate test send (push-worker's internal test endpoint), so
 * that it can show what the provider said beside the adapter's classification. Only calls made while
 * {@link #listen} runs on the calling thread are recorded; the dispatch loop never listens and pays one thread-local
 * read per provider call. The adapters' clients come from {@link VendorHttp}, which wraps them in
 * {@link RecordingHttpClient}.
 */
public final class ProviderAnswers {

    /** The answer's HTTP status and its body (cut to {@value #MAX_BODY} characters). */
    public record Answer(int status, String body) {}

    /** The result of the listened call and the last answer recorded during it (null when none). */
    public record Listened<T>(T result, Answer answer) {}

    static final int MAX_BODY = 1024;
    private static final ThreadLocal<AtomicReference<Answer>> LISTENER = new ThreadLocal<>();

    private ProviderAnswers() {}

    public static <T> Listened<T> listen(Supplier<T> call) {
        AtomicReference<Answer> last = new AtomicReference<>();
        LISTENER.set(last);
        try {
            T result = call.get();
            return new Listened<>(result, last.get());
        } finally {
            LISTENER.remove();
        }
    }

    /** Where an answer to a call made now on this thread goes; null when nobody listens. */
    static AtomicReference<Answer> listener() {
        return LISTENER.get();
    }

    static void record(AtomicReference<Answer> listener, HttpResponse<?> response) {
        if (listener == null || response == null) {
            return;
        }
        Object body = response.body();
        String text = body instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
                : body == null ? "" : body.toString();
        listener.set(new Answer(response.statusCode(), text.length() > MAX_BODY ? text.substring(0, MAX_BODY) : text));
    }
}

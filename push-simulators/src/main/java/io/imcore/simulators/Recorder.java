package io.imcore.simulators;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a simulator received: every protocol request (the last {@value #KEPT_REQUESTS} in full, for field-by-field
 * tests) and every accepted delivery per device token (all of them, counted, for exactness checks).
 */
public final class Recorder {

    static final int KEPT_REQUESTS = 2000;

    /** One request as received. Header names are lower case. */
    public record Request(String method, String path, Map<String, String> headers, String body) {}

    private final Deque<Request> requests = new ArrayDeque<>();
    private final AtomicLong requestCount = new AtomicLong();
    private final Map<String, AtomicInteger> deliveriesByToken = new ConcurrentHashMap<>();
    private final AtomicLong deliveries = new AtomicLong();

    void request(Request request) {
        requestCount.incrementAndGet();
        synchronized (requests) {
            if (requests.size() == KEPT_REQUESTS) {
                requests.removeFirst();
            }
            requests.addLast(request);
        }
    }

    /** Called by a simulator for each token it accepted (answered as sent). */
    public void delivered(String token) {
        deliveries.incrementAndGet();
        deliveriesByToken.computeIfAbsent(token, t -> new AtomicInteger()).incrementAndGet();
    }

    /** The last requests received, oldest first (control and unknown paths included). */
    public List<Request> requests() {
        synchronized (requests) {
            return new ArrayList<>(requests);
        }
    }

    public long requestCount() {
        return requestCount.get();
    }

    /** Accepted deliveries, repeats of a token included. */
    public long deliveries() {
        return deliveries.get();
    }

    /** Distinct tokens accepted at least once. */
    public int distinctTokens() {
        return deliveriesByToken.size();
    }

    /** How often the token was accepted (0 when never). */
    public int deliveriesTo(String token) {
        AtomicInteger count = deliveriesByToken.get(token);
        return count == null ? 0 : count.get();
    }

    public void reset() {
        synchronized (requests) {
            requests.clear();
        }
        requestCount.set(0);
        deliveriesByToken.clear();
        deliveries.set(0);
    }
}

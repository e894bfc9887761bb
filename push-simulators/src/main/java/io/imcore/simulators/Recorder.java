package io.imcore.simulators;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a simulator received: every protocol request (the last {@value #KEPT_REQUESTS} in full, for field-by-field
 * tests), every accepted delivery per device token (all of them, counted, for exactness checks) and, per chat
 * message an accepted notification carried in its data ({@code "msg_id":"<id>"}, docs/offline-push.md), when it was
 * first and last accepted (up to {@value #KEPT_MESSAGES} messages; the offline push benchmark reads them).
 */
public final class Recorder {

    static final int KEPT_REQUESTS = 2000;
    static final int KEPT_MESSAGES = 1_000_000;

    /**
     * The msg_id of a notification's data wherever a provider carries it: a JSON member
     * ({@code "msg_id":"12"}), or one inside a JSON string (Huawei's message.data, OPPO's action_parameters: escaped
     * quotes {@code \"msg_id\":\"12\"}, at any depth of escaping).
     */
    private static final Pattern MSG_ID = Pattern.compile("\"msg_id\\\\*\"\\s*:\\s*\\\\*\"(\\d{1,18})\\\\*\"");

    /** One request as received, at {@code receivedAt} (epoch ms). Header names are lower case. */
    public record Request(String method, String path, Map<String, String> headers, String body, long receivedAt) {

        public Request(String method, String path, Map<String, String> headers, String body) {
            this(method, path, headers, body, System.currentTimeMillis());
        }
    }

    /**
     * The accepted deliveries of one chat message: the first and the last (epoch ms, as the simulator accepted
     * them) and how many tokens it was accepted for.
     */
    public record Received(long msgId, long firstMillis, long lastMillis, int deliveries) {

        Received plus(Received later) {
            return new Received(msgId, Math.min(firstMillis, later.firstMillis), Math.max(lastMillis, later.lastMillis),
                    deliveries + later.deliveries);
        }
    }

    private final Deque<Request> requests = new ArrayDeque<>();
    private final AtomicLong requestCount = new AtomicLong();
    private final Map<String, AtomicInteger> deliveriesByToken = new ConcurrentHashMap<>();
    private final AtomicLong deliveries = new AtomicLong();
    private final Map<Long, Received> receivedByMessage = new ConcurrentHashMap<>();
    private final AtomicLong messagesNotKept = new AtomicLong();

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

    /**
     * Called by a simulator for each token it accepted, with the text that holds the notification's data (the
     * request body, or the one message of a batch that is the token's): counts the delivery as {@link
     * #delivered(String)} does and, when the data names a chat message ({@code msg_id}), notes its receive time.
     */
    public void delivered(String token, String notification) {
        delivered(token);
        Long msgId = msgId(notification);
        if (msgId != null) {
            long now = System.currentTimeMillis();
            if (receivedByMessage.size() >= KEPT_MESSAGES && !receivedByMessage.containsKey(msgId)) {
                messagesNotKept.incrementAndGet();
                return;
            }
            receivedByMessage.merge(msgId, new Received(msgId, now, now, 1), Received::plus);
        }
    }

    /** The msg_id the text's notification data names, or null. */
    static Long msgId(CharSequence text) {
        if (text == null) {
            return null;
        }
        Matcher m = MSG_ID.matcher(text);
        return m.find() ? Long.valueOf(m.group(1)) : null;
    }

    /** The chat messages whose first accepted delivery was at or after {@code sinceMillis}, in no order. */
    public List<Received> received(long sinceMillis) {
        List<Received> out = new ArrayList<>();
        for (Received r : receivedByMessage.values()) {
            if (r.firstMillis() >= sinceMillis) {
                out.add(r);
            }
        }
        return out;
    }

    /** Chat messages not noted because {@value #KEPT_MESSAGES} were already (their deliveries are still counted). */
    public long messagesNotKept() {
        return messagesNotKept.get();
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
        receivedByMessage.clear();
        messagesNotKept.set(0);
    }
}

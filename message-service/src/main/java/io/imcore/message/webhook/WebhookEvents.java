package io.imcore.message.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.events.PushEvent;
import java.time.Instant;
import java.util.Set;

/** The event types an app can subscribe to, and the body every event is sent in (docs/webhooks.md "Events"). */
public final class WebhookEvents {

    public static final String MESSAGE_CREATED = "message.created";
    /** POST /message/recall and /message/edit, queued in their transactions. */
    public static final String MESSAGE_RECALLED = "message.recalled";
    public static final String MESSAGE_EDITED = "message.edited";
    /** POST /message/ack moved a reader's position, queued in its transaction. */
    public static final String MESSAGE_READ = "message.read";
    /** The before-send hook's call: not a subscription, sent whenever before_send is on. */
    public static final String MESSAGE_BEFORE_SEND = "message.before_send";
    /** Several events in one request, for an app with a batch size above 1. */
    public static final String BATCH = "batch";
    public static final String GROUP_CREATED = "group.created";
    public static final String GROUP_MEMBERS_ADDED = "group.members_added";
    public static final String GROUP_MEMBERS_REMOVED = "group.members_removed";
    public static final String GROUP_DESTROYED = "group.destroyed";
    public static final String USER_REGISTERED = "user.registered";
    public static final String USER_CHANGED = "user.changed";
    /** push-service's and push-worker's, from push.events (common's PushEvent). */
    public static final String PUSH_TASK_FINISHED = PushEvent.TASK_FINISHED;
    public static final String OFFLINE_PUSH_FAILED = PushEvent.OFFLINE_PUSH_FAILED;
    /** What POST /app/webhook accepts in {@code events}. */
    public static final Set<String> SUBSCRIBABLE = Set.of(MESSAGE_CREATED, MESSAGE_RECALLED, MESSAGE_EDITED,
            MESSAGE_READ, GROUP_CREATED, GROUP_MEMBERS_ADDED, GROUP_MEMBERS_REMOVED, GROUP_DESTROYED, USER_REGISTERED,
            USER_CHANGED, PUSH_TASK_FINISHED, OFFLINE_PUSH_FAILED, WebhookEndpoint.ALL_EVENTS);

    private WebhookEvents() {
    }

    /** The Standard Webhooks body: {@code {"type", "timestamp" (ISO 8601), "data"}}. */
    public static String body(ObjectMapper mapper, String type, Instant timestamp, ObjectNode data) {
        ObjectNode body = mapper.createObjectNode();
        body.put("type", type);
        body.put("timestamp", timestamp.toString());
        body.set("data", data);
        return body.toString();
    }
}

package io.imcore.common.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.kafka.Topics;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Record format (version 1) of topic {@value #TOPIC}: what happened to pushes that an app's webhook may want
 * (docs/events.md). Written to the push database's outbox by triggers (push-service's migration V17) in the
 * transaction of the change, so push-service and push-worker both produce it without code of their own; relayed by
 * push-service. {@code data} is the webhook event's data as it is delivered (docs/webhooks.md "Events").
 * Key: {@code app_id:push_task:<task_id>} or {@code app_id:offline_push:<user_id>}, so a task's or a recipient's
 * events stay in order on one partition.
 */
@RegisterForReflection
public record PushEvent(int v, String type, String appId, long at, ObjectNode data) {

    public static final String TOPIC = Topics.PUSH_EVENTS;
    public static final int VERSION = 1;
    public static final String TASK_FINISHED = "push.task.finished";
    public static final String OFFLINE_PUSH_FAILED = "offline_push.failed";
}

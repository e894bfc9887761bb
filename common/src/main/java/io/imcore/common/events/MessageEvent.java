package io.imcore.common.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.imcore.common.kafka.Topics;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * Record format (version 1) of topic {@value #TOPIC}, published by message-service after a message or notification
 * commits, for push-service's offline push (docs/offline-push.md). Key {@code app_id:conversation_id} (message-service's
 * internal conversation id), so one conversation's events stay in order on one partition.
 * <p>
 * {@value #CREATED}: every recipient, with the devices that had a live connection when the message was stored
 * ({@code liveDevices}: they got it on the socket, no OS notification). {@value #UNACKNOWLEDGED}: after the ack window,
 * the recipients whose live devices did not acknowledge it ({@code liveDevices}: those devices, to notify now).
 * {@value #RECALLED}: the message, announced before, was recalled; every recipient of it, with their unread count
 * without it and their live devices (which got a {@code recall} frame): the notification shown for the conversation
 * is to be replaced ("A message was recalled") by a notification of its own, {@code noticeId}.
 *
 * @param kind        {@code direct}, {@code group} or {@code system}
 * @param preview     the text of a TEXT message, cut to {@value #PREVIEW_CHARS} characters; null for other types
 * @param push        the sender's per-message options from the message's {@code config.offline_push}, or null
 * @param mentions    user ids from the message's {@code config.mentions}, or empty
 * @param noticeId    {@value #RECALLED} only: the id of the notification that replaces the message's, drawn from the
 *                    message ids (so it is unique in the app and newer than the message); null for the other types
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MessageEvent(
        int v,
        String type,
        String appId,
        long msgId,
        String kind,
        long senderId,
        Integer senderDeviceSn,
        Long groupId,
        String groupName,
        int contentType,
        String preview,
        PushOptions push,
        List<Long> mentions,
        boolean mentionAll,
        List<Recipient> recipients,
        long createdMs,
        long at,
        Long noticeId) {

    public static final String TOPIC = Topics.MESSAGE_EVENTS;
    public static final int VERSION = 1;
    public static final String CREATED = "message.created";
    public static final String UNACKNOWLEDGED = "message.unacknowledged";
    public static final String RECALLED = "message.recalled";
    public static final String DIRECT = "direct";
    public static final String GROUP = "group";
    public static final String SYSTEM = "system";
    /** Longer than any provider shows on a lock screen; each adapter cuts further to its provider's limit. */
    public static final int PREVIEW_CHARS = 100;

    /**
     * One recipient user.
     *
     * @param conversationId the conversation's address as this user sees it (the peer, the group, 0 for the system)
     * @param unread         the user's unread messages over all conversations after this message (the badge)
     * @param liveDevices    device_sn of the user's live connections (see the type)
     */
    @RegisterForReflection
    public record Recipient(long userId, long conversationId, long unread, List<Integer> liveDevices) {}

    /**
     * What the sender asked for this message: {@code enabled} false sends no OS notification (the app notifies by
     * its own means); {@code title} and {@code body} replace the generated texts.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PushOptions(Boolean enabled, String title, String body) {}

    public MessageEvent withType(String newType, List<Recipient> newRecipients) {
        return new MessageEvent(v, newType, appId, msgId, kind, senderId, senderDeviceSn, groupId, groupName,
                contentType, preview, push, mentions, mentionAll, newRecipients, createdMs, System.currentTimeMillis(),
                noticeId);
    }
}

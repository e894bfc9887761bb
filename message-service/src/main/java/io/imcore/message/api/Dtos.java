package io.imcore.message.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Wire shapes of message-service (snake_case JSON; api.md 2.3 to 2.6 and decisions.md section 4). */
public final class Dtos {

    private Dtos() {
    }

    /** Body of send and notify (api.md 4.4.4). */
    @RegisterForReflection
    public record SendRequest(Integer contentType, String content, String attachment, String config, String ext,
            Long fromUserId, List<Long> targets, Integer type, Long transactionId) {}

    /** Address (api.md 2.4): a user, a group, or 0 for the system. */
    @RegisterForReflection
    @JsonPropertyOrder({"uid", "device_sn", "set_uid", "set_device_sn"})
    public record Address(long uid, Integer deviceSn, boolean setUid, boolean setDeviceSn) {

        public static Address of(long uid, Integer deviceSn) {
            return new Address(uid, deviceSn, true, deviceSn != null);
        }
    }

    /** Message (api.md 2.3); the set_* flags say which fields carry a value. */
    @RegisterForReflection
    @JsonPropertyOrder({"msg_id", "timestamp", "status", "ctype", "content", "attachment", "config", "ext",
            "from_xid", "to_xid"})
    public record MessageView(long msgId, long timestamp, String status, String ctype, String content,
            String attachment, String config, String ext, Address fromXid, Address toXid,
            boolean setMsgId, boolean setTimestamp, boolean setStatus, boolean setCtype, boolean setContent,
            boolean setAttachment, boolean setConfig, boolean setExt, boolean setFromXid, boolean setToXid) {

        public static MessageView of(long msgId, long timestamp, String status, String ctype, String content,
                String attachment, String config, String ext, Address from, Address to) {
            return new MessageView(msgId, timestamp, status, ctype, content, attachment, config, ext, from, to,
                    true, true, status != null, true, content != null, attachment != null, config != null,
                    ext != null, true, true);
        }
    }

    /** Where the next (older) page starts: the query of the next GET /message/conversation. */
    @RegisterForReflection
    public record PageIterator(long oppositeId, long msgIdStart, int limit) {}

    /** Conversation page (api.md 2.5). */
    @RegisterForReflection
    @JsonPropertyOrder({"messages", "messages_size", "is_last", "next_msg_id", "messages_iterator"})
    public record ConversationPage(List<MessageView> messages, int messagesSize,
            @JsonProperty("is_last") boolean last, long nextMsgId, PageIterator messagesIterator,
            @JsonProperty("set_is_last") boolean setLast, boolean setMessages, boolean setNextMsgId) {}

    /** Unread conversation entry (api.md 2.6). */
    @RegisterForReflection
    @JsonPropertyOrder({"conversation_id", "num"})
    public record UnreadEntry(Address conversationId, long num, boolean setConversationId, boolean setNum) {

        public static UnreadEntry of(long peerId, long num) {
            return new UnreadEntry(Address.of(peerId, null), num, true, true);
        }
    }

    @RegisterForReflection
    public record CreateGroupRequest(String name, String description, String avatar, List<Long> userList) {}

    /** Body of invite and kick. */
    @RegisterForReflection
    public record GroupMembersRequest(Long groupId, List<Long> userList) {}

    @RegisterForReflection
    public record GroupInfo(long groupId, String name, String description, String avatar, Long ownerId,
            int memberCount, long createdAt) {}

    @RegisterForReflection
    public record GroupMember(long userId, String role, long joinedAt) {}

    /** GET /user/online_status: whether the user has a connected device, and which. */
    @RegisterForReflection
    public record OnlineStatus(long userId, boolean online, List<OnlineDevice> devices) {}

    @RegisterForReflection
    public record OnlineDevice(int deviceSn, long connectedAt) {}

    /** Answer of POST /internal/live/notify: indexes into the request's devices. */
    @RegisterForReflection
    @JsonPropertyOrder({"delivered", "offline"})
    public record LiveNotifyResult(List<Integer> delivered, List<Integer> offline) {}
}

package io.imcore.message.conversation;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Message (api.md 2.3); the set_* flags say which fields carry a value. {@code edited_at} (epoch ms of the last edit)
 * is absent when the message was never edited (docs/api-decisions.md "Recall and edit").
 */
@RegisterForReflection
@JsonPropertyOrder({"msg_id", "timestamp", "status", "ctype", "content", "attachment", "config", "ext",
        "from_xid", "to_xid", "edited_at"})
public record MessageView(long msgId, long timestamp, String status, String ctype, String content,
        String attachment, String config, String ext, Address fromXid, Address toXid,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long editedAt,
        boolean setMsgId, boolean setTimestamp, boolean setStatus, boolean setCtype, boolean setContent,
        boolean setAttachment, boolean setConfig, boolean setExt, boolean setFromXid, boolean setToXid) {

    public static MessageView of(long msgId, long timestamp, String status, String ctype, String content,
            String attachment, String config, String ext, Address from, Address to, Long editedAt) {
        return new MessageView(msgId, timestamp, status, ctype, content, attachment, config, ext, from, to, editedAt,
                true, true, status != null, true, content != null, attachment != null, config != null,
                ext != null, true, true);
    }
}

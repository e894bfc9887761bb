package io.imcore.message.conversation;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;

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

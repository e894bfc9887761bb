package io.imcore.message.live;

/**
 * The frame a replica writes for an announced message (docs/live-protocol.md "Server to client"): the message itself,
 * or the change a recall or an edit made to it. {@code type} is the frame's {@code type} and its name in the NOTIFY
 * payload.
 */
public enum LiveFrame {
    MESSAGE("message"), RECALL("recall"), EDIT("edit");

    public final String type;

    LiveFrame(String type) {
        this.type = type;
    }

    static LiveFrame ofType(String type) {
        for (LiveFrame frame : values()) {
            if (frame.type.equals(type)) {
                return frame;
            }
        }
        throw new IllegalArgumentException("unknown live frame type " + type);
    }
}

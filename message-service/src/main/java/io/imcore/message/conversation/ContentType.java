package io.imcore.message.conversation;

/** content_type of api.md 4.4.4; the name is the message's ctype. */
public enum ContentType {
    TEXT, IMAGE, AUDIO, VIDEO, FILE, LOCATION, COMMAND, FORWARD;

    public static String nameOf(int code) {
        return code >= 0 && code < values().length ? values()[code].name() : "UNKNOWN";
    }

    public static boolean valid(int code) {
        return code >= 0 && code < values().length;
    }
}

package io.imcore.message.conversation;

/** The three kinds of conversation; the number is stored in {@code conversations.kind}. */
public enum ConversationKind {
    DIRECT(1), GROUP(2), SYSTEM(3);

    public final short code;

    ConversationKind(int code) {
        this.code = (short) code;
    }

    /** The system: the sender of notifications, in its SYSTEM conversation with each user (address 0). */
    public static final long SYSTEM_SENDER = 0;

    /** Users are below this id, groups at or above it (auth-service's user ids stay under 10^12). */
    public static final long FIRST_GROUP_ID = 1_000_000_000_000L;

    public static boolean isGroupId(long id) {
        return id >= FIRST_GROUP_ID;
    }
}

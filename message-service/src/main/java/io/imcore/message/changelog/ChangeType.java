package io.imcore.message.changelog;

/** The kinds of change in a user's log (docs/api-decisions.md "Sync"); {@code code} is stored, the name is sent. */
public enum ChangeType {
    MESSAGE(1), RECALL(2), EDIT(3), READ(4), CONVERSATION_DELETED(5), GROUP(6);

    public final short code;

    ChangeType(int code) {
        this.code = (short) code;
    }

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static ChangeType of(int code) {
        for (ChangeType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown change type " + code);
    }
}

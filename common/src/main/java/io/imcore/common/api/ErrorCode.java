package io.imcore.common.api;

/** Error codes of decisions.md section 2, with the default text used when no detail is given. */
public enum ErrorCode {
    OK(200, null),
    USER_NOT_FOUND(10000, "user does not exist"),
    BAD_PARAMETER(10002, "bad request parameter"),
    TOKEN_MISSING(10003, "access-token missing"),
    USER_EXISTS(10004, "user already exists"),
    TOKEN_INVALID(10008, "access-token invalid or expired"),
    NO_PERMISSION(10010, "no permission"),
    LOGIN_FAILED(10013, "login failed: unknown login name or wrong password"),
    USER_DISABLED(10014, "user is disabled"),
    TOO_MANY_REQUESTS(10015, "too many requests"),
    PUSH_IMAGE_TOO_LARGE(12002, "push image must be under 1 MB"),
    PUSH_IMAGE_UNREACHABLE(12004, "push image URL cannot be downloaded"),
    PUSH_TOO_MANY_TARGETS(12005, "push target list longer than 500"),
    PUSH_NOT_ENABLED(12006, "push is not enabled for this app"),
    PUSH_TASK_NOT_SCHEDULED(12007, "push task is no longer scheduled"),
    FILE_NOT_FOUND(13001, "file does not exist"),
    FILE_TOO_LARGE(13002, "file is larger than the app allows for its type"),
    FILE_TYPE_REFUSED(13003, "file type is not allowed or is not what its bytes are"),
    FILE_CONTENT_MISMATCH(13004, "uploaded bytes differ from the declared size or sha256"),
    FILE_NOT_COMPLETED(13005, "file upload is not completed"),
    FILE_NO_ACCESS(13006, "no access to this file"),
    GROUP_NOT_FOUND(20001, "group does not exist"),
    NOT_GROUP_MEMBER(20002, "user is not a member of the group"),
    GROUP_MEMBER_MUTED(20003, "the sender is muted in this group"),
    RECEIPTS_NOT_SENDER(20004, "only the message's sender or an admin may read its receipts"),
    GROUP_TOO_LARGE(20005, "the group has more members than the app allows for this"),
    MESSAGE_REFUSED(21001, "message refused by the app's moderation"),
    MODERATION_UNAVAILABLE(21002, "the app's before-send hook did not answer; the message was not sent"),
    SYNC_CURSOR_EXPIRED(21003, "cursor expired or not the caller's: read the conversations' pages instead"),
    NOT_MESSAGE_SENDER(22001, "only the message's sender may change it"),
    RECALL_WINDOW_PASSED(22002, "the app's recall window for this message has passed"),
    EDIT_WINDOW_PASSED(22003, "the app's edit window for this message has passed"),
    MESSAGE_NOT_EDITABLE(22004, "only a text message that was not recalled can be edited"),
    APP_NOT_FOUND(40000, "app_id does not exist"),
    INTERNAL(50000, "internal error"),
    UNAVAILABLE(50003, "a dependency is unavailable; safe to retry");

    private final int code;
    private final String defaultMessage;

    ErrorCode(int code, String defaultMessage) {
        this.code = code;
        this.defaultMessage = defaultMessage;
    }

    public int code() {
        return code;
    }

    public String defaultMessage() {
        return defaultMessage;
    }
}

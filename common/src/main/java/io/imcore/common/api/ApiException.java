package io.imcore.common.api;

/** The one exception type of the API: it carries the error code the client receives. */
public class ApiException extends RuntimeException {

    private final ErrorCode errorCode;
    private final Object data;

    public ApiException(ErrorCode errorCode) {
        this(errorCode, errorCode.defaultMessage());
    }

    public ApiException(ErrorCode errorCode, String message) {
        this(errorCode, message, null);
    }

    /** {@code data}: what the envelope's data carries beside the code (e.g. an app's own refusal), or null. */
    public ApiException(ErrorCode errorCode, String message, Object data) {
        super(message, null, false, false);
        this.errorCode = errorCode;
        this.data = data;
    }

    public Object data() {
        return data;
    }

    public ErrorCode errorCode() {
        return errorCode;
    }

    public static ApiException badParameter(String field, String problem) {
        return new ApiException(ErrorCode.BAD_PARAMETER, field + ": " + problem);
    }
}

package io.imcore.common.error;

/** The one exception type of the API: it carries the error code the client receives. */
public class ApiException extends RuntimeException {

    private final ErrorCode errorCode;

    public ApiException(ErrorCode errorCode) {
        this(errorCode, errorCode.defaultMessage());
    }

    public ApiException(ErrorCode errorCode, String message) {
        super(message, null, false, false);
        this.errorCode = errorCode;
    }

    public ErrorCode errorCode() {
        return errorCode;
    }

    public static ApiException badParameter(String field, String problem) {
        return new ApiException(ErrorCode.BAD_PARAMETER, field + ": " + problem);
    }
}

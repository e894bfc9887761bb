package io.imcore.common.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** The envelope of every API response (api.md 2.1): code 200 and a null message on success. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"code", "data", "message"})
public record ApiResponse<T>(int code, T data, String message) {

    public static <T> ApiResponse<T> ok(T data) {
        return new ApiResponse<>(ErrorCode.OK.code(), data, null);
    }

    public static ApiResponse<Object> error(ErrorCode code, String message) {
        return error(code, null, message);
    }

    public static ApiResponse<Object> error(ErrorCode code, Object data, String message) {
        return new ApiResponse<>(code.code(), data, message);
    }
}

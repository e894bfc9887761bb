package io.imcore.common.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Turns every failure into the envelope with HTTP 200 (decisions.md section 2): no stack trace ever leaves. */
public class ExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ExceptionMappers.class);

    @ServerExceptionMapper
    public Response api(ApiException e) {
        return toResponse(ApiResponse.error(e.errorCode(), e.data(), e.getMessage()));
    }

    /** 10015 also tells HTTP clients and proxies when to come back: {@code Retry-After} beside the envelope. */
    @ServerExceptionMapper
    public Response throttled(Throttled e) {
        return Response.fromResponse(envelope(e.errorCode(), e.getMessage()))
                .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds())).build();
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonParseException e) {
        return envelope(ErrorCode.BAD_PARAMETER, describe(e));
    }

    @ServerExceptionMapper
    public Response wrongShape(MismatchedInputException e) {
        return envelope(ErrorCode.BAD_PARAMETER, describe(e));
    }

    @ServerExceptionMapper
    public Response badJson(JsonProcessingException e) {
        return envelope(ErrorCode.BAD_PARAMETER, describe(e));
    }

    @ServerExceptionMapper
    public Response constraint(ConstraintViolationException e) {
        String text = e.getConstraintViolations().stream()
                .map(v -> fieldOf(v) + ": " + v.getMessage())
                .sorted()
                .collect(Collectors.joining("; "));
        return envelope(ErrorCode.BAD_PARAMETER, text);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, ContainerRequestContext request) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        String what = request.getMethod() + " " + request.getUriInfo().getPath();
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonProcessingException json) {
                return envelope(ErrorCode.BAD_PARAMETER, describe(json));
            }
        }
        return switch (status) {
            case 404 -> envelope(ErrorCode.BAD_PARAMETER, "no such endpoint: " + what);
            case 405 -> envelope(ErrorCode.BAD_PARAMETER, "method not allowed: " + what);
            case 406 -> envelope(ErrorCode.BAD_PARAMETER, "only application/json responses are produced");
            case 415 -> envelope(ErrorCode.BAD_PARAMETER, "body: Content-Type must be application/json");
            default -> status < 500
                    ? envelope(ErrorCode.BAD_PARAMETER, "bad request: " + what)
                    : unexpected(e, request);
        };
    }

    @ServerExceptionMapper
    public Response database(DatabaseException e, ContainerRequestContext request) {
        return toResponse(databaseAnswer(e, CorrelationId.of(request)));
    }

    /** Also the one place where an unreachable database becomes 50003, whatever wrapped its SQLException. */
    @ServerExceptionMapper
    public Response unexpected(Throwable e, ContainerRequestContext request) {
        return toResponse(unexpectedAnswer(e, CorrelationId.of(request)));
    }

    /**
     * The envelope for a failure of a plain route ({@code PlainRoutes}): the answers of the
     * mappers above for what such a route can throw. A {@link Throttled}'s Retry-After is the route's to add.
     */
    public static ApiResponse<Object> answerFor(Throwable e, String correlationId) {
        if (e instanceof ApiException api) {
            return ApiResponse.error(api.errorCode(), api.data(), api.getMessage());
        }
        if (e instanceof JsonProcessingException json) {
            return ApiResponse.error(ErrorCode.BAD_PARAMETER, describe(json));
        }
        if (e instanceof DatabaseException database) {
            return databaseAnswer(database, correlationId);
        }
        return unexpectedAnswer(e, correlationId);
    }

    private static ApiResponse<Object> databaseAnswer(DatabaseException e, String correlationId) {
        if (e.isUnstorableText()) {
            return ApiResponse.error(ErrorCode.BAD_PARAMETER, "body: text contains a character that cannot be stored");
        }
        return unexpectedAnswer(e, correlationId);
    }

    private static ApiResponse<Object> unexpectedAnswer(Throwable e, String id) {
        // Hibernate and the transaction manager wrap the driver's exception: judge it like a plain-JDBC failure
        for (Throwable cause = e.getCause(); cause != null && !(e instanceof DatabaseException); cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return databaseAnswer(new DatabaseException(sql), id);
            }
        }
        SQLException unavailable = DatabaseException.unavailableCause(e);
        if (unavailable != null) {
            LOG.warnf("database unavailable [%s]: %s", id, unavailable.getMessage());
            return ApiResponse.error(ErrorCode.UNAVAILABLE, "database unavailable; safe to retry (correlation id " + id + ")");
        }
        LOG.errorf(e, "unexpected error [%s]", id);
        return ApiResponse.error(ErrorCode.INTERNAL, "internal error (correlation id " + id + ")");
    }

    private static Response toResponse(ApiResponse<Object> answer) {
        return Response.ok(answer, MediaType.APPLICATION_JSON_TYPE).build();
    }

    public static Response envelope(ErrorCode code, String message) {
        return toResponse(ApiResponse.error(code, message));
    }

    /** Names the offending field: from the mapping path, else from where the parser stopped. */
    private static String describe(JsonProcessingException e) {
        String field = "";
        if (e instanceof JsonMappingException mapping) {
            field = mapping.getPath().stream()
                    .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                    .collect(Collectors.joining(".")).replace(".[", "[");
        } else if (e instanceof StreamReadException read && read.getProcessor() != null) {
            JsonParser parser = read.getProcessor();
            if (e instanceof InputCoercionException && parser.getParsingContext() != null
                    && parser.getParsingContext().getCurrentName() != null) {
                return parser.getParsingContext().getCurrentName() + ": number out of range";
            }
            return "body: malformed JSON";
        }
        if (field.isEmpty()) {
            return "body: must be a JSON object of the documented shape";
        }
        return field + ": wrong type or value";
    }

    private static String fieldOf(ConstraintViolation<?> violation) {
        String last = null;
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getName() != null && node.getKind() != jakarta.validation.ElementKind.METHOD
                    && node.getKind() != jakarta.validation.ElementKind.CONTAINER_ELEMENT) {
                last = node.getKind() == jakarta.validation.ElementKind.PARAMETER ? "body" : node.getName();
            }
        }
        return last == null ? "body" : toSnakeCase(last);
    }

    static String toSnakeCase(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
    }
}

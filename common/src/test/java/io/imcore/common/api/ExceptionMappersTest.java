package io.imcore.common.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Server-side failures quote the request's correlation id, and never their details. */
class ExceptionMappersTest {

    private static ContainerRequestContext requestWithCorrelationId(String id) {
        return (ContainerRequestContext) Proxy.newProxyInstance(ExceptionMappersTest.class.getClassLoader(),
                new Class<?>[] {ContainerRequestContext.class},
                (proxy, method, args) -> method.getName().equals("getProperty") ? id : null);
    }

    private static ApiResponse<?> body(Response response) {
        assertEquals(200, response.getStatus());
        return (ApiResponse<?>) response.getEntity();
    }

    @Test
    void unexpectedErrorsAre50000WithTheCorrelationIdOnly() {
        ApiResponse<?> answer = body(new ExceptionMappers().unexpected(
                new IllegalStateException("secret detail"), requestWithCorrelationId("req-42")));
        assertEquals(50000, answer.code());
        assertTrue(answer.message().contains("req-42"), answer.message());
        assertFalse(answer.message().contains("secret detail"));
    }

    @Test
    void anUnreachableDatabaseIs50003WithTheCorrelationId() {
        ApiResponse<?> answer = body(new ExceptionMappers().database(
                new DatabaseException(new SQLException("connection refused", "08001")), requestWithCorrelationId("req-7")));
        assertEquals(50003, answer.code());
        assertTrue(answer.message().contains("req-7"), answer.message());
    }

    @Test
    void aDriverFailureWrappedByHibernateIsJudgedLikePlainJdbc() {
        RuntimeException wrapped = new RuntimeException("could not execute statement",
                new SQLException("invalid byte sequence for encoding \"UTF8\": 0x00", "22021"));
        assertEquals(10002, body(new ExceptionMappers().unexpected(wrapped, requestWithCorrelationId("req-9"))).code());
        RuntimeException unreachable = new RuntimeException("commit failed",
                new IllegalStateException(new SQLException("connection refused", "08006")));
        assertEquals(50003, body(new ExceptionMappers().unexpected(unreachable, requestWithCorrelationId("req-9"))).code());
    }

    @Test
    void snakeCaseNamesMatchTheWire() {
        assertEquals("old_password", ExceptionMappers.toSnakeCase("oldPassword"));
        assertEquals("user_id", ExceptionMappers.toSnakeCase("userId"));
    }
}

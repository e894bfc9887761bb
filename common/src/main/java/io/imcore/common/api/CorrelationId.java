package io.imcore.common.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Every request carries a correlation id: the caller's {@code X-Request-Id} when it is sane, else a new one.
 * It is echoed in the response header, put in the log context and quoted in 50000 error messages.
 */
public class CorrelationId {

    public static final String HEADER = "X-Request-Id";
    private static final String PROPERTY = "imcore.correlation-id";
    private static final String MDC_KEY = "correlationId";
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public static String of(ContainerRequestContext request) {
        Object id = request == null ? null : request.getProperty(PROPERTY);
        return id == null ? UUID.randomUUID().toString() : id.toString();
    }

    /** The caller's id when it is sane, else a new one; also put in the log context of this thread. */
    public static String assign(String given) {
        String id = given != null && SANE.matcher(given).matches() ? given : UUID.randomUUID().toString();
        MDC.put(MDC_KEY, id);
        return id;
    }

    public static void forget() {
        MDC.remove(MDC_KEY);
    }

    @ServerRequestFilter(preMatching = true)
    public void assign(ContainerRequestContext request) {
        request.setProperty(PROPERTY, assign(request.getHeaderString(HEADER)));
    }

    @ServerResponseFilter
    public void echo(ContainerRequestContext request, ContainerResponseContext response) {
        response.getHeaders().putSingle(HEADER, of(request));
    }
}

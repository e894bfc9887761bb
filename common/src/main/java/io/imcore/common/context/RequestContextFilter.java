package io.imcore.common.context;

import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.reflect.Method;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Checks the caller of every JAX-RS request against the endpoint's {@link Access} level ({@link CallerChecks}) and
 * fills the {@link RequestContext}.
 */
public class RequestContextFilter {

    @Inject
    RequestContext context;

    @Inject
    CallerChecks checks;

    @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
    public void authenticate(ContainerRequestContext request, ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        if (method == null) {
            return;
        }
        Access access = method.getAnnotation(Access.class);
        if (access == null) {
            access = resource.getResourceClass().getAnnotation(Access.class);
        }
        checks.check(access == null ? Access.Level.USER : access.value(), request::getHeaderString, context);
    }
}

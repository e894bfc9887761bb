package io.imcore.throttle;

import io.imcore.common.context.RequestContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** Takes one call from the app's quota for endpoints marked {@link AppQuota}; runs after the caller is known. */
public class AppQuotaFilter {

    @Inject
    RequestContext context;

    @Inject
    AppQuotas quotas;

    @ServerRequestFilter(priority = Priorities.AUTHORIZATION)
    public void consume(ContainerRequestContext request, ResourceInfo resource) {
        AppQuota quota = resource.getResourceMethod() == null ? null
                : resource.getResourceMethod().getAnnotation(AppQuota.class);
        if (quota != null) {
            quotas.consume(quota.value(), "/" + request.getUriInfo().getPath().replaceFirst("^/", ""), context.appId());
        }
    }
}

package io.imcore.common.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every request body of the API is JSON (api.md), so it is read as JSON whatever Content-Type the client sent
 * (curl -d sends a form type, some clients send none): a wrong header never turns a valid call into an error.
 */
public class JsonBodies {

    @ServerRequestFilter(preMatching = true)
    public void treatBodyAsJson(ContainerRequestContext request) {
        request.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON);
    }
}

package io.imcore.common.error;

import io.imcore.common.api.ApiResponse;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.quarkus.runtime.configuration.MemorySize;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers what never reaches a resource with the envelope instead of the framework's bare status page:
 * a path no endpoint serves, and a body declared larger than {@code quarkus.http.limits.max-body-size} (10002 both).
 */
@ApplicationScoped
public class EdgeResponses {

    @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K")
    MemorySize maxBodyBytes;

    void install(@Observes Router router) {
        router.route().last().handler(ctx -> {
            if (!ctx.response().ended()) {
                badRequest(ctx, "no such endpoint: " + ctx.request().method() + " " + ctx.request().path());
            }
        });
        // Checked on the declared length before the body is read; a chunked body over the limit still gets a bare 413.
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            String length = ctx.request().getHeader("Content-Length");
            if (length != null && length.length() < 19 && length.chars().allMatch(Character::isDigit)
                    && Long.parseLong(length) > maxBodyBytes.asLongValue()) {
                ctx.request().pause();
                ctx.response().putHeader("Connection", "close");
                badRequest(ctx, "body: larger than the limit of " + maxBodyBytes.asLongValue() + " bytes");
            } else {
                ctx.next();
            }
        });
    }

    private static void badRequest(RoutingContext ctx, String message) {
        ctx.response()
                .setStatusCode(200)
                .putHeader("Content-Type", "application/json")
                .end(Json.encode(ApiResponse.error(ErrorCode.BAD_PARAMETER, message)));
    }
}

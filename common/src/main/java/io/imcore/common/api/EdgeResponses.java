package io.imcore.common.api;

import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.quarkus.runtime.configuration.MemorySize;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers what never reaches a resource with the envelope instead of the framework's bare status page:
 * a path no endpoint serves, and a body larger than {@code quarkus.http.limits.max-body-size} (10002 both), whether
 * its Content-Length declares it or it comes chunked.
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
        // Checked on the declared length before the body is read.
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            String length = ctx.request().getHeader("Content-Length");
            if (length != null && length.length() < 19 && length.chars().allMatch(Character::isDigit)
                    && Long.parseLong(length) > maxBodyBytes.asLongValue()) {
                ctx.request().pause();
                tooLarge(ctx);
            } else {
                ctx.next();
            }
        });
        // A body without a declared length (chunked) is read here up to the limit, and the resource reads it from
        // the routing context; left to RESTEasy, passing the limit ends the response with a bare 413 of its own.
        BodyHandler chunkedBodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes.asLongValue());
        router.route().order(Integer.MIN_VALUE + 1).handler(ctx -> {
            if (ctx.request().getHeader("Content-Length") == null && ctx.request().getHeader("Transfer-Encoding") != null) {
                chunkedBodies.handle(ctx);
            } else {
                ctx.next();
            }
        });
        router.route().order(Integer.MIN_VALUE).failureHandler(ctx -> {
            if (ctx.statusCode() == 413 && !ctx.response().ended()) {
                tooLarge(ctx);
            } else {
                ctx.next();
            }
        });
    }

    private void tooLarge(RoutingContext ctx) {
        ctx.response().putHeader("Connection", "close");
        badRequest(ctx, "body: larger than the limit of " + maxBodyBytes.asLongValue() + " bytes");
    }

    private static void badRequest(RoutingContext ctx, String message) {
        ctx.response()
                .setStatusCode(200)
                .putHeader("Content-Type", "application/json")
                .end(Json.encode(ApiResponse.error(ErrorCode.BAD_PARAMETER, message)));
    }
}

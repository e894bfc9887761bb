package io.imcore.common.error;

import io.imcore.common.api.ApiResponse;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** A path no endpoint serves gets the envelope (10002), not the framework's HTML or plain-text 404. */
@ApplicationScoped
public class UnknownPathHandler {

    void install(@Observes Router router) {
        router.route().last().handler(ctx -> {
            if (ctx.response().ended()) {
                return;
            }
            String what = ctx.request().method() + " " + ctx.request().path();
            ctx.response()
                    .setStatusCode(200)
                    .putHeader("Content-Type", "application/json")
                    .end(Json.encode(ApiResponse.error(ErrorCode.BAD_PARAMETER, "no such endpoint: " + what)));
        });
    }
}

package io.imcore.throttle;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.CallerChecks;
import io.imcore.common.context.TokenAuthenticator;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.List;

/**
 * The operator's view of an app's quotas in one service (header {@code platform-key}, app in header {@code app_id}):
 * read them, override one for the app, or go back to the default. Each service exposes it under its own path for
 * the quotas it enforces ({@code /message/quota}, {@code /push/quota}).
 */
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public abstract class QuotaOperatorResource {

    private final AppQuotas quotas;
    private final TokenAuthenticator apps;
    private final List<String> names;

    protected QuotaOperatorResource(AppQuotas quotas, TokenAuthenticator apps, List<String> names) {
        this.quotas = quotas;
        this.apps = apps;
        this.names = names;
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record QuotaView(String quota, int limit, long periodSeconds, int burst, boolean overridden) {}

    public record QuotaRequest(
            @NotNull(message = "required") String quota,
            @NotNull(message = "required") @Min(value = 1, message = "1 to 1000000") @Max(value = 1_000_000,
                    message = "1 to 1000000") Integer limit,
            @NotNull(message = "required") @Min(value = 1, message = "1 to 86400") @Max(value = 86_400,
                    message = "1 to 86400") Integer periodSeconds,
            @NotNull(message = "required") @Min(value = 1, message = "1 to 1000000") @Max(value = 1_000_000,
                    message = "1 to 1000000") Integer burst) {}

    @GET
    @Access(Access.Level.PLATFORM)
    public ApiResponse<List<QuotaView>> list(@HeaderParam(CallerChecks.APP_ID) String appId) {
        return ApiResponse.ok(views(apps.knownApp(appId)));
    }

    @PUT
    @Access(Access.Level.PLATFORM)
    public ApiResponse<List<QuotaView>> override(@HeaderParam(CallerChecks.APP_ID) String appId,
            @NotNull(message = "required") @Valid QuotaRequest body) {
        String app = apps.knownApp(appId);
        quotas.setOverride(checked(body.quota()), app,
                new RateLimit(body.limit(), Duration.ofSeconds(body.periodSeconds()), body.burst()));
        return ApiResponse.ok(views(app));
    }

    @DELETE
    @Access(Access.Level.PLATFORM)
    public ApiResponse<List<QuotaView>> reset(@HeaderParam(CallerChecks.APP_ID) String appId,
            @QueryParam("quota") String quota) {
        String app = apps.knownApp(appId);
        quotas.clearOverride(checked(quota), app);
        return ApiResponse.ok(views(app));
    }

    private String checked(String quota) {
        if (quota == null || !names.contains(quota)) {
            throw ApiException.badParameter("quota", "one of " + String.join(", ", names));
        }
        return quota;
    }

    private List<QuotaView> views(String appId) {
        return names.stream().map(name -> {
            var override = quotas.override(name, appId);
            RateLimit limit = override.orElseGet(() -> quotas.defaultOf(name));
            return new QuotaView(name, limit.limit(), limit.period().toSeconds(), limit.burst(), override.isPresent());
        }).toList();
    }
}

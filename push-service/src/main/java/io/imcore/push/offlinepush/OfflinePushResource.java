package io.imcore.push.offlinepush;

import static io.imcore.common.api.QueryParams.optionalLong;
import static io.imcore.common.api.QueryParams.requiredLong;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.common.store.Database;
import io.imcore.push.offlinepush.OfflinePushStore.AppSettings;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * The app's offline push (docs/offline-push.md, docs/api-decisions.md; admin): its switch and language, the
 * per-message trace and the daily counts. The users' own settings are {@link UserPushSettings}.
 */
@Path("/push/offline")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class OfflinePushResource {

    @RegisterForReflection
    public record AppSettingsBody(Boolean enabled, String language) {}

    @RegisterForReflection
    public record AppSettingsView(boolean enabled, String language, boolean pushEnabled) {}

    private final RequestContext caller;
    private final Database database;
    private final OfflinePushStore store;
    private final OfflinePushTrace trace;

    public OfflinePushResource(RequestContext caller, Database database, OfflinePushStore store,
            OfflinePushTrace trace) {
        this.caller = caller;
        this.database = database;
        this.store = store;
        this.trace = trace;
    }

    @GET
    @Path("settings")
    @Access(Access.Level.ADMIN)
    public ApiResponse<AppSettingsView> appSettings() {
        AppSettings settings = database.read(c -> store.appSettings(c, caller.appId()));
        return ApiResponse.ok(new AppSettingsView(settings.enabled(), settings.language(), settings.pushEnabled()));
    }

    @POST
    @Path("settings")
    @Access(Access.Level.ADMIN)
    public ApiResponse<AppSettingsView> saveAppSettings(AppSettingsBody body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        if (body.language() != null && !OfflineTexts.known(body.language())) {
            throw ApiException.badParameter("language", "must be " + OfflineTexts.ENGLISH + " or " + OfflineTexts.CHINESE);
        }
        database.inTransaction(c -> {
            store.saveAppSettings(c, caller.appId(), body.enabled(), body.language());
            return null;
        });
        return appSettings();
    }

    /** What happened to one message's offline push, per recipient device (kept 7 days). */
    @GET
    @Path("trace")
    @Access(Access.Level.ADMIN)
    public ApiResponse<OfflinePushTrace.MessageTrace> trace(@QueryParam("msg_id") String msgId) {
        long id = requiredLong("msg_id", msgId, 1, Long.MAX_VALUE);
        return ApiResponse.ok(trace.of(caller.appId(), id));
    }

    /** Offline pushes per day (UTC) and channel over the last {@code days} days (1..90, default 30). */
    @GET
    @Path("stats")
    @Access(Access.Level.ADMIN)
    public ApiResponse<List<OfflinePushTrace.DailyRow>> stats(@QueryParam("days") String days) {
        return ApiResponse.ok(trace.daily(caller.appId(), (int) optionalLong("days", days, 30, 1, 90)));
    }



}

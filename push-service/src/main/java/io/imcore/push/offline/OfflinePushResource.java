package io.imcore.push.offline;

import static io.imcore.common.api.QueryParams.optionalLong;
import static io.imcore.common.api.QueryParams.requiredLong;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.StorableText;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.common.error.ApiException;
import io.imcore.common.store.Database;
import io.imcore.push.offline.OfflinePushStore.AppSettings;
import io.imcore.push.offline.OfflinePushStore.UserSettings;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings of offline push (docs/offline-push.md "What the user controls", docs/api-decisions.md): the app's
 * switch and language (admin), a user's display name, previews and do-not-disturb hours, muted conversations (the
 * user, or an admin with the {@code user_id} header), and the per-message trace (admin).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class OfflinePushResource {

    private static final Pattern CLOCK = Pattern.compile("([01]\\d|2[0-3]):([0-5]\\d)");
    private static final int MAX_NAME = 64;

    @RegisterForReflection
    public record AppSettingsBody(Boolean enabled, String language) {}

    @RegisterForReflection
    public record AppSettingsView(boolean enabled, String language, boolean pushEnabled) {}

    /** {@code dnd_start}, {@code dnd_end}: "HH:MM" in {@code time_zone} (an IANA zone); both or neither. */
    @RegisterForReflection
    public record UserSettingsBody(String displayName, Boolean showPreview, String dndStart, String dndEnd,
            String timeZone) {}

    @RegisterForReflection
    public record MuteBody(Long conversationId, Boolean mute) {}

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
    @Path("push/offline/settings")
    @Access(Access.Level.ADMIN)
    public ApiResponse<AppSettingsView> appSettings() {
        AppSettings settings = database.read(c -> store.appSettings(c, caller.appId()));
        return ApiResponse.ok(new AppSettingsView(settings.enabled(), settings.language(), settings.pushEnabled()));
    }

    @POST
    @Path("push/offline/settings")
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

    @GET
    @Path("user/push/settings")
    public ApiResponse<Map<String, Object>> userSettings() {
        long userId = caller.requireUserId();
        UserSettings s = database.read(c -> store.userSettings(c, caller.appId(), new long[] {userId}))
                .getOrDefault(userId, UserSettings.DEFAULT);
        return ApiResponse.ok(view(s));
    }

    /** Replaces the user's settings: a field left out takes its default. */
    @POST
    @Path("user/push/settings")
    public ApiResponse<Map<String, Object>> saveUserSettings(UserSettingsBody body) {
        long userId = caller.requireUserId();
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        String name = body.displayName() == null || body.displayName().isBlank() ? null : body.displayName().strip();
        StorableText.check("display_name", name);
        if (name != null && name.codePointCount(0, name.length()) > MAX_NAME) {
            throw ApiException.badParameter("display_name", "at most " + MAX_NAME + " characters");
        }
        Integer start = minutes("dnd_start", body.dndStart());
        Integer end = minutes("dnd_end", body.dndEnd());
        if ((start == null) != (end == null)) {
            throw ApiException.badParameter(start == null ? "dnd_start" : "dnd_end", "set both dnd_start and dnd_end, or neither");
        }
        String zone = body.timeZone() == null || body.timeZone().isEmpty() ? "UTC" : body.timeZone();
        try {
            ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw ApiException.badParameter("time_zone", "not a time zone name (IANA, e.g. Asia/Shanghai)");
        }
        UserSettings settings = new UserSettings(name, body.showPreview() == null || body.showPreview(), start, end,
                zone);
        database.inTransaction(c -> {
            store.saveUserSettings(c, caller.appId(), userId, settings);
            return null;
        });
        return ApiResponse.ok(view(settings));
    }

    @GET
    @Path("user/push/mute")
    public ApiResponse<List<Long>> mutes() {
        long userId = caller.requireUserId();
        return ApiResponse.ok(List.copyOf(new TreeSet<>(database.read(c -> store.mutes(c, caller.appId(),
                new long[] {userId})).getOrDefault(userId, java.util.Set.of()))));
    }

    /** Mutes ({@code mute} true, the default) or unmutes one conversation, by its address as the user sees it. */
    @POST
    @Path("user/push/mute")
    public ApiResponse<Boolean> mute(MuteBody body) {
        long userId = caller.requireUserId();
        if (body == null || body.conversationId() == null) {
            throw ApiException.badParameter("conversation_id", "required");
        }
        if (body.conversationId() < 0) {
            throw ApiException.badParameter("conversation_id", "must be 0 (system notifications), a user or a group id");
        }
        boolean mute = body.mute() == null || body.mute();
        database.inTransaction(c -> {
            store.setMute(c, caller.appId(), userId, body.conversationId(), mute);
            return null;
        });
        return ApiResponse.ok(mute);
    }

    /** What happened to one message's offline push, per recipient device (kept 7 days). */
    @GET
    @Path("push/offline/trace")
    @Access(Access.Level.ADMIN)
    public ApiResponse<OfflinePushTrace.MessageTrace> trace(@QueryParam("msg_id") String msgId) {
        long id = requiredLong("msg_id", msgId, 1, Long.MAX_VALUE);
        return ApiResponse.ok(trace.of(caller.appId(), id));
    }

    /** Offline pushes per day (UTC) and channel over the last {@code days} days (1..90, default 30). */
    @GET
    @Path("push/offline/stats")
    @Access(Access.Level.ADMIN)
    public ApiResponse<List<OfflinePushTrace.DailyRow>> stats(@QueryParam("days") String days) {
        return ApiResponse.ok(trace.daily(caller.appId(), (int) optionalLong("days", days, 30, 1, 90)));
    }

    private static Integer minutes(String field, String clock) {
        if (clock == null || clock.isEmpty()) {
            return null;
        }
        Matcher m = CLOCK.matcher(clock);
        if (!m.matches()) {
            throw ApiException.badParameter(field, "must be HH:MM (00:00 to 23:59)");
        }
        return Integer.parseInt(m.group(1)) * 60 + Integer.parseInt(m.group(2));
    }

    private static Map<String, Object> view(UserSettings s) {
        java.util.LinkedHashMap<String, Object> view = new java.util.LinkedHashMap<>();
        view.put("display_name", s.displayName());
        view.put("show_preview", s.showPreview());
        view.put("dnd_start", clock(s.dndStart()));
        view.put("dnd_end", clock(s.dndEnd()));
        view.put("time_zone", s.timeZone());
        return view;
    }

    private static String clock(Integer minutes) {
        return minutes == null ? null : String.format("%02d:%02d", minutes / 60, minutes % 60);
    }
}

package io.imcore.push.offlinepush;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.StorableText;
import io.imcore.common.store.Database;
import io.imcore.push.offlinepush.OfflinePushStore.UserSettings;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A user's offline push settings and muted conversations (docs/offline-push.md "What the user and the app
 * control"), served under {@code /user/push/*} beside the device registry.
 */
@ApplicationScoped
public class UserPushSettings {

    private static final Pattern CLOCK = Pattern.compile("([01]\\d|2[0-3]):([0-5]\\d)");
    private static final int MAX_NAME = 64;

    /** {@code dnd_start}, {@code dnd_end}: "HH:MM" in {@code time_zone} (an IANA zone); both or neither. */
    @RegisterForReflection
    public record UserSettingsBody(String displayName, Boolean showPreview, String dndStart, String dndEnd,
            String timeZone) {}

    @RegisterForReflection
    public record MuteBody(Long conversationId, Boolean mute) {}

    private final Database database;
    private final OfflinePushStore store;

    public UserPushSettings(Database database, OfflinePushStore store) {
        this.database = database;
        this.store = store;
    }

    public Map<String, Object> get(String appId, long userId) {
        return view(database.read(c -> store.userSettings(c, appId, new long[] {userId}))
                .getOrDefault(userId, UserSettings.DEFAULT));
    }

    /** Replaces the user's settings: a field left out takes its default. */
    public Map<String, Object> save(String appId, long userId, UserSettingsBody body) {
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
            throw ApiException.badParameter(start == null ? "dnd_start" : "dnd_end",
                    "set both dnd_start and dnd_end, or neither");
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
            store.saveUserSettings(c, appId, userId, settings);
            return null;
        });
        return view(settings);
    }

    public List<Long> mutes(String appId, long userId) {
        return List.copyOf(new TreeSet<>(database.read(c -> store.mutes(c, appId, new long[] {userId}))
                .getOrDefault(userId, Set.of())));
    }

    /** Mutes ({@code mute} true, the default) or unmutes one conversation, by its address as the user sees it. */
    public boolean mute(String appId, long userId, MuteBody body) {
        if (body == null || body.conversationId() == null) {
            throw ApiException.badParameter("conversation_id", "required");
        }
        if (body.conversationId() < 0) {
            throw ApiException.badParameter("conversation_id", "must be 0 (system notifications), a user or a group id");
        }
        boolean mute = body.mute() == null || body.mute();
        database.inTransaction(c -> {
            store.setMute(c, appId, userId, body.conversationId(), mute);
            return null;
        });
        return mute;
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
        Map<String, Object> view = new LinkedHashMap<>();
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

package io.imcore.message.grouplimits;

import io.imcore.common.api.ApiException;
import io.imcore.common.context.ExpiringCache;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * An app's group limits: its saved row, else the defaults of {@code im.message.groups.*}; read once per
 * {@code im.message.groups.limits-cache-ttl} (read frames and typing ask on every read receipt and typing frame).
 */
@ApplicationScoped
public class GroupLimitsService {

    private final Database database;
    private final GroupLimitsConfig config;
    private final MessageConfig messages;
    private final ExpiringCache<String, GroupLimits> limits;

    public GroupLimitsService(Database database, GroupLimitsConfig config, MessageConfig messages) {
        this.database = database;
        this.config = config;
        this.messages = messages;
        this.limits = new ExpiringCache<>(config.limitsCacheTtl(), 100_000);
    }

    public GroupLimits of(String appId) {
        GroupLimits cached = limits.get(appId);
        if (cached != null) {
            return cached;
        }
        GroupLimits loaded = database.read(c -> GroupLimitsStore.find(c, appId))
                .orElseGet(() -> new GroupLimits(config.receiptFramesMaxMembers(), config.typingMaxMembers()));
        limits.put(appId, loaded);
        return loaded;
    }

    /** Absent fields keep the app's current value; 0 turns the feature off for every group. */
    public GroupLimits save(String appId, GroupLimits body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        GroupLimits current = of(appId);
        GroupLimits saved = new GroupLimits(
                checked("receipt_frames_max_members", body.receiptFramesMaxMembers(),
                        current.receiptFramesMaxMembers()),
                checked("typing_max_members", body.typingMaxMembers(), current.typingMaxMembers()));
        database.inTransaction(c -> {
            GroupLimitsStore.save(c, appId, saved);
            return null;
        });
        limits.remove(appId);
        return saved;
    }

    private int checked(String field, Integer given, int current) {
        if (given == null) {
            return current;
        }
        if (given < 0 || given > messages.groupMaxMembers()) {
            throw ApiException.badParameter(field, "0 to " + messages.groupMaxMembers());
        }
        return given;
    }
}

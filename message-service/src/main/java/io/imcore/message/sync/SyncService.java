package io.imcore.message.sync;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.changelog.ChangeType;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationService;
import io.imcore.message.conversation.MessageRow;
import io.imcore.message.sync.SyncStore.EventRow;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a user's change log from a cursor (GET /message/sync, the /ws replay) and renders its events as the user
 * sees them; sweeps the events older than their app's retention.
 */
@ApplicationScoped
public class SyncService {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 500;

    private final Database database;
    private final SyncStore store;
    private final ObjectMapper mapper;
    private final MessageConfig config;

    public SyncService(Database database, SyncStore store, ObjectMapper mapper, MessageConfig config) {
        this.database = database;
        this.store = store;
        this.mapper = mapper;
        this.config = config;
    }

    /**
     * The user's events after {@code cursor} (null: from the oldest kept), at most {@code limit}. A cursor whose
     * next event is no longer kept answers 21003: the client pages the conversations instead.
     */
    public SyncPage sync(String appId, long userId, String cursor, int limit) {
        Long after = cursor == null ? null : SyncCursor.decode("cursor", cursor, appId, userId).position();
        Read read = read(appId, userId, after == null ? 0 : after, Long.MAX_VALUE, limit, after != null, "cursor");
        return new SyncPage(read.events(), new SyncCursor(read.last()).encode(appId, userId), read.hasMore());
    }

    /**
     * The user's newest {@code limit} events, oldest first, and the cursor of the newest: what support staff look at,
     * and where a new device starts when it wants nothing older.
     */
    public SyncPage recent(String appId, long userId, int limit) {
        long head = database.read(c -> store.head(c, appId, userId));
        Read read = read(appId, userId, Math.max(0, head - limit), head, limit, false, "limit");
        return new SyncPage(read.events(), new SyncCursor(read.last()).encode(appId, userId), false);
    }

    /** A page of events and the position after which the next one starts. */
    public record Read(List<SyncEvent> events, long last, boolean hasMore) {}

    /**
     * Events after {@code after} up to {@code upTo}; {@code exact}: {@code after} is a cursor the client holds, so
     * the event right after it must still be kept (else 21003 naming {@code field}).
     */
    public Read read(String appId, long userId, long after, long upTo, int limit, boolean exact, String field) {
        return database.read(c -> {
            List<EventRow> rows = store.page(c, appId, userId, after, upTo, limit + 1);
            long head = rows.isEmpty() ? store.head(c, appId, userId) : 0;
            if (exact && (rows.isEmpty() ? head > after : rows.get(0).position() > after + 1)) {
                throw new ApiException(ErrorCode.SYNC_CURSOR_EXPIRED, field + ": its events are no longer kept");
            }
            if (exact && rows.isEmpty() && head < after) {
                throw new ApiException(ErrorCode.SYNC_CURSOR_EXPIRED, field + ": not a position of this user's log");
            }
            boolean more = rows.size() > limit;
            List<EventRow> page = more ? rows.subList(0, limit) : rows;
            long last = page.isEmpty() ? (exact ? after : Math.min(head, upTo)) : page.get(page.size() - 1).position();
            return new Read(render(appId, userId, page), last, more);
        });
    }

    /** The user's last position once the writers in flight have committed: where a /ws replay stops. */
    public long settledHead(String appId, long userId) {
        return database.autoCommit(c -> store.settledHead(c, appId, userId));
    }

    /** An event's frame as sent, and its position in the user's log. */
    public record Positioned(long position, String frame) {}

    /** Some of the user's events by position, as frames, oldest first (live changes other than messages). */
    public List<Positioned> events(String appId, long userId, long[] positions) {
        return database.read(c -> {
            List<EventRow> rows = store.find(c, appId, userId, positions);
            List<SyncEvent> events = render(appId, userId, rows);
            List<Positioned> positioned = new ArrayList<>(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                positioned.add(new Positioned(rows.get(i).position(), frame(events.get(i))));
            }
            return positioned;
        });
    }

    /**
     * {@code {"type":..,"cursor":..,"conversation_id":<address as the user sees it>, ...payload, "message":{..}}}:
     * a message, recall or edit carries the Message object as the conversation's pages show it now.
     */
    private List<SyncEvent> render(String appId, long userId, List<EventRow> rows) {
        List<SyncEvent> events = new ArrayList<>(rows.size());
        for (EventRow row : rows) {
            events.add(new SyncEvent(ChangeType.of(row.type()).wireName(),
                    new SyncCursor(row.position()).encode(appId, userId), row.peerId(), fields(row.payload()),
                    row.message() == null ? null : ConversationService.view(row.message(), status(userId, row))));
        }
        return events;
    }

    /** The event as its /ws frame. */
    public String frame(SyncEvent event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an event that cannot be written", e);
        }
    }

    /** A change's own fields, from its stored JSON object; none for a message. */
    private Map<String, JsonNode> fields(String payload) {
        if (payload == null) {
            return Map.of();
        }
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        try {
            mapper.readTree(payload).properties().forEach(field -> fields.put(field.getKey(), field.getValue()));
        } catch (Exception e) {
            throw new IllegalStateException("unreadable payload of a change", e);
        }
        return fields;
    }

    /** As a page shows it (docs/api-decisions.md "Status per viewer"). */
    private static String status(long userId, EventRow row) {
        MessageRow message = row.message();
        if (message.senderId() == userId && (row.peerId() == 0 || ConversationKind.isGroupId(row.peerId()))) {
            return "READ";
        }
        if (row.readSeq() != null && message.seq() <= row.readSeq()) {
            return "READ";
        }
        return row.deliveredSeq() != null && message.seq() <= row.deliveredSeq() ? "DELIVERED" : "UNREAD";
    }

    /** Deletes the events older than their app's retention, in batches, until none is left. */
    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweep() {
        MessageConfig.Sync sync = config.sync();
        int deleted;
        do {
            deleted = database.autoCommit(c -> store.sweep(c, sync.retention(), sync.retentionByApp(),
                    sync.sweepBatch()));
        } while (deleted == sync.sweepBatch());
    }
}

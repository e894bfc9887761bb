package io.imcore.console.user;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.console.page.Pages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A user's newest change-log events (message-service's {@code GET /message/recent_events}) as the user page's rows,
 * newest first: what a support agent checks when a user says a phone missed something.
 */
final class RecentEvents {

    /** Characters of a message's content shown; the rest is the user's business. */
    private static final int CONTENT_CHARS = 80;
    /** The fields every event has, shown in columns of their own (the rest is the event's summary). */
    private static final Set<String> COLUMNS = Set.of("type", "cursor", "conversation_id", "message");

    private RecentEvents() {}

    static List<Map<String, Object>> rows(JsonNode events) {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (events == null || !events.isArray()) {
            return rows;
        }
        for (JsonNode event : events) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("type", event.path("type").asText());
            row.put("conversation_id", event.path("conversation_id").asText());
            JsonNode message = event.path("message");
            row.put("msg_id", message.isObject() ? message.path("msg_id").asText() : "");
            row.put("status", message.isObject() ? message.path("status").asText() : "");
            row.put("time_text", message.isObject() ? Pages.time(message.path("timestamp").asLong()) : "-");
            row.put("summary", message.isObject() ? content(message) : rest(event));
            rows.add(0, row);
        }
        return rows;
    }

    /** A text's beginning; another type's name (its content is the app's own format). */
    private static String content(JsonNode message) {
        String type = message.path("ctype").asText();
        if (!"TEXT".equals(type)) {
            return "[" + type + "]";
        }
        String text = message.path("content").asText();
        return text.length() > CONTENT_CHARS ? text.substring(0, CONTENT_CHARS) + "…" : text;
    }

    /** What a change other than a message says: its own fields, as JSON. */
    private static String rest(JsonNode event) {
        ObjectNode rest = ((ObjectNode) event).deepCopy();
        rest.remove(COLUMNS);
        return rest.toString();
    }
}

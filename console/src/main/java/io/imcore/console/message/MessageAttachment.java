package io.imcore.console.message;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.backend.BackendClient;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleMessages;
import io.imcore.console.page.ConsoleSession;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A traced message's attachment (docs/api-decisions.md "Attachment of a file message"), read as one of its recipients:
 * message-service has no read of a message by id alone (messages are keyed by conversation), so the admin acts as the
 * trace's first recipient ({@code user_id} header) and reads that conversation's page that ends at the message
 * ({@code GET /message/conversation?opposite_id=&msg_id_start=<msg_id + 1>&limit=1}), without side effects.
 */
@ApplicationScoped
public class MessageAttachment {

    @Inject
    BackendClient backend;
    @Inject
    ObjectMapper json;

    /**
     * The attachment's facts for the page: {@code kind} "file" (name, type, content type, sizeText, dimensions, and
     * {@code thumbnail}, the console's path of an image's thumbnail), "text" (an attachment that names no file,
     * {@code text}), "none", or "error" ({@code error}).
     */
    public Map<String, String> of(ConsoleSession session, long msgId, List<Map<String, Object>> devices,
            ConsoleMessages msg) {
        Map<String, String> found = new LinkedHashMap<>();
        Map<String, Object> recipient = devices.stream().filter(d -> d.get("user_id") instanceof Number).findFirst()
                .orElse(null);
        Long opposite = recipient == null ? null : oppositeId(String.valueOf(recipient.get("conversation")));
        if (opposite == null) {
            found.put("kind", "none");
            return found;
        }
        long userId = ((Number) recipient.get("user_id")).longValue();
        Answer page = backend.get(Service.MESSAGE, "/message/conversation?opposite_id=" + opposite + "&msg_id_start="
                + (msgId + 1) + "&limit=1", session.credentialsAsUser(userId));
        if (!page.ok() || page.data() == null) {
            found.put("kind", "error");
            found.put("error", msg.attachment_not_read(page.error()));
            return found;
        }
        JsonNode message = null;
        for (JsonNode candidate : page.data().path("messages")) {
            if (candidate.path("msg_id").asLong() == msgId) {
                message = candidate;
            }
        }
        String attachment = message == null ? "" : message.path("attachment").asText("");
        if (attachment.isEmpty()) {
            found.put("kind", "none");
            return found;
        }
        JsonNode file = parse(attachment);
        if (file == null || !file.path("file_id").isIntegralNumber()) {
            found.put("kind", "text");
            found.put("text", attachment);
            return found;
        }
        found.put("kind", "file");
        found.put("name", file.path("name").asText("-"));
        found.put("type", file.path("type").asText("-"));
        found.put("contentType", file.path("content_type").asText("-"));
        found.put("sizeText", size(file.path("size").asLong())); // not "size": Qute reads a map's size() first
        found.put("dimensions", file.path("width").isNumber() && file.path("height").isNumber()
                ? file.path("width").asText() + " × " + file.path("height").asText() : "");
        found.put("thumbnail", "image".equals(file.path("type").asText())
                ? "/console/messages/thumbnail?file_id=" + file.path("file_id").asLong() + "&user_id=" + userId : "");
        return found;
    }

    /** The trace's conversation (u:&lt;peer&gt;, g:&lt;group&gt;, s) as GET /message/conversation's opposite_id. */
    static Long oppositeId(String conversation) {
        if (conversation.equals("s")) {
            return 0L;
        }
        if (conversation.matches("[ug]:\\d{1,18}")) {
            return Long.parseLong(conversation.substring(2));
        }
        return null;
    }

    private JsonNode parse(String attachment) {
        try {
            JsonNode node = json.readTree(attachment);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException notJson) {
            return null;
        }
    }

    /** A size in bytes for people: B, KiB or MiB. */
    public static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}

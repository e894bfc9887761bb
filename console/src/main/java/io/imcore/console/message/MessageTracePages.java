package io.imcore.console.message;

import io.imcore.console.backend.BackendClient;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleMessages;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Message trace: what offline push did with one chat message, per recipient device (GET /push/offline/trace,
 * docs/offline-push.md "Who gets one"). The trace is kept 7 days by push-service.
 */
@Path("/messages")
@Produces(MediaType.TEXT_HTML)
public class MessageTracePages extends ServicePages {

    /** A thumbnail fits in 320 px (message-service's im.file.thumbnail-size): far below this. */
    private static final int MAX_THUMBNAIL_BYTES = 1024 * 1024;

    /** The decisions of docs/offline-push.md in words; an unknown one is shown as it came. */
    static String decision(String decision, ConsoleMessages msg) {
        return switch (decision) {
            case "live" -> msg.decision_live();
            case "live_unacknowledged" -> msg.decision_live_unacknowledged();
            case "offline_push" -> msg.decision_offline_push();
            case "muted" -> msg.decision_muted();
            case "do_not_disturb" -> msg.decision_do_not_disturb();
            case "no_token" -> msg.decision_no_token();
            case "no_device" -> msg.decision_no_device();
            case "user_opted_out" -> msg.decision_user_opted_out();
            case "sender_opted_out" -> msg.decision_sender_opted_out();
            default -> decision;
        };
    }

    @Inject
    Template messages;
    @Inject
    Language language;
    @Inject
    MessageAttachment attachments;

    @GET
    public Response trace(@Context HttpHeaders headers, @QueryParam("msg_id") String msgId) {
        ConsoleSession session = guard.requireAdmin(headers);
        ConsoleMessages msg = language.msg();
        String id = Pages.text(msgId);
        TemplateInstance page = Pages.page(messages, session).data("msgId", id);
        if (id.isEmpty()) {
            return Response.ok(page.data("traced", false)).build();
        }
        if (!id.matches("[+-]?\\d+")) {
            // not worth a call: only a number can name a message (a number out of range is the API's to refuse)
            return Response.ok(page.data("traced", false)
                    .data("error", msg.trace_not_number(id))).build();
        }
        Answer answer = backend.get(Service.PUSH, "/push/offline/trace?msg_id="
                + URLEncoder.encode(id, StandardCharsets.UTF_8), session.credentials());
        if (!answer.ok() || answer.data() == null) {
            return Response.ok(page.data("traced", false)
                    .data("error", msg.trace_error(answer.error()))).build();
        }
        List<Map<String, Object>> devices = backend.plainList(answer.data().get("devices"));
        for (Map<String, Object> device : devices) {
            String decision = String.valueOf(device.get("decision"));
            device.put("decision_text", decision(decision, msg));
            device.put("conversation_text", conversation(device.get("conversation"), msg));
            device.put("channel_text", orDash(device.get("channel")));
            device.put("reason_text", orDash(device.get("reason")));
            device.put("decided_at_text", Pages.time(device.get("decided_at")));
            device.put("sent_at_text", Pages.time(device.get("sent_at")));
            device.put("received_at_text", Pages.time(device.get("received_at")));
        }
        long notified = devices.stream().filter(d -> "sent".equals(d.get("state"))).count();
        String traced = answer.data().path("msg_id").asText(id);
        // a flag, not the list: Qute's #if treats an empty list as false
        return Response.ok(page.data("traced", true).data("tracedId", traced)
                .data("devices", devices).data("found", !devices.isEmpty()).data("notified", notified)
                .data("attachment", devices.isEmpty() || !traced.matches("\\d{1,18}") ? Map.of("kind", "none")
                        : attachments.of(session, Long.parseLong(traced), devices, msg))).build();
    }

    /**
     * An image attachment's thumbnail, fetched here from the store's presigned URL (message-service's
     * {@code GET /file/download}, asked as the recipient, who may download it) and served from the console's own
     * origin: the Content-Security-Policy allows images from 'self' only, and the store's URL carries a signature.
     */
    @GET
    @Path("thumbnail")
    @Produces({"image/jpeg", "image/png"})
    public Response thumbnail(@Context HttpHeaders headers, @QueryParam("file_id") String fileId,
            @QueryParam("user_id") String userId) {
        ConsoleSession session = guard.requireAdmin(headers);
        if (fileId == null || userId == null || !fileId.matches("\\d{1,18}") || !userId.matches("\\d{1,18}")) {
            return Response.status(404).build();
        }
        Answer link = backend.get(Service.MESSAGE, "/file/download?file_id=" + fileId,
                session.credentialsAsUser(Long.parseLong(userId)));
        String url = link.ok() && link.data() != null ? link.data().path("thumbnail_url").asText("") : "";
        BackendClient.Bytes image = url.isEmpty() ? null : backend.bytes(url, MAX_THUMBNAIL_BYTES);
        if (image == null || !(image.contentType().equals("image/jpeg") || image.contentType().equals("image/png"))) {
            return Response.status(404).build();
        }
        return Response.ok(image.body(), image.contentType()).header("Cache-Control", "private, max-age=300").build();
    }

    /** The recipient's conversation (u:&lt;peer&gt;, g:&lt;group&gt;, s) in words. */
    static String conversation(Object value, ConsoleMessages msg) {
        String text = value == null ? "" : value.toString();
        if (text.startsWith("u:")) {
            return msg.conversation_direct(text.substring(2));
        }
        if (text.startsWith("g:")) {
            return msg.conversation_group(text.substring(2));
        }
        return text.equals("s") ? msg.conversation_system() : text;
    }

    private static String orDash(Object value) {
        return value == null || value.toString().isEmpty() ? "-" : value.toString();
    }
}

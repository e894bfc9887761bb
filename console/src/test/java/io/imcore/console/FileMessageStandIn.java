package io.imcore.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.imageio.ImageIO;

/**
 * message-service's reads behind a traced message's attachment, for the browser tests' stand-in of message-service:
 * {@code GET /message/conversation} as ConversationResource pages it (the admin acting as {@code user_id}; the
 * message with {@code msg_id} below {@code msg_id_start}, if the test stored one for that user and conversation),
 * {@code GET /file/download} (a presigned-like {@code thumbnail_url} on this server) and that thumbnail, a PNG; and
 * {@code GET /file/list}, a user's files for the user page.
 */
final class FileMessageStandIn {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A 40x30 PNG. */
    static final byte[] THUMBNAIL = png(40, 30);

    /** A stored message as one recipient reads it: key "app/user/opposite/msg". */
    private final Map<String, String> attachments = new ConcurrentHashMap<>();
    private final Map<String, Long> downloadable = new ConcurrentHashMap<>();
    /** GET /file/list's files (JSON array) per "app/user". */
    private final Map<String, String> owned = new ConcurrentHashMap<>();
    private volatile String baseUrl;

    void baseUrl(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** A message with this attachment (JSON text) in the conversation of {@code userId} with {@code oppositeId}. */
    void message(String appId, long userId, long oppositeId, long msgId, String attachment) {
        attachments.put(appId + "/" + userId + "/" + oppositeId + "/" + msgId, attachment);
    }

    /** A file the user may download (a member of a conversation that received it). */
    void downloadable(String appId, long userId, long fileId) {
        downloadable.put(appId + "/" + userId + "/" + fileId, fileId);
    }

    /** The files GET /file/list answers for the user: a JSON array as message-service writes it. */
    void files(String appId, long userId, String files) {
        owned.put(appId + "/" + userId, files);
    }

    /** GET /file/list as FileResource answers it: the admin names the user in the query; none stored, none listed. */
    void list(HttpExchange exchange) throws IOException {
        String key = exchange.getRequestHeaders().getFirst("app_id") + "/" + ConsoleStack.query(exchange).get("user_id");
        answer(exchange, "{\"code\":200,\"message\":\"ok\",\"data\":{\"files\":" + owned.getOrDefault(key, "[]")
                + "}}");
    }

    void conversation(HttpExchange exchange) throws IOException {
        Map<String, String> query = ConsoleStack.query(exchange);
        String user = exchange.getRequestHeaders().getFirst("user_id");
        if (user == null) {
            answer(exchange, "{\"code\":10002,\"message\":\"user_id: header required when calling with an admin token\"}");
            return;
        }
        long before = Long.parseLong(query.getOrDefault("msg_id_start", "0"));
        String prefix = exchange.getRequestHeaders().getFirst("app_id") + "/" + user + "/" + query.get("opposite_id") + "/";
        ObjectNode page = JSON.createObjectNode();
        var messages = page.putArray("messages");
        attachments.forEach((key, attachment) -> {
            long msgId = Long.parseLong(key.substring(key.lastIndexOf('/') + 1));
            if (key.startsWith(prefix) && msgId == before - 1) {
                messages.addObject().put("msg_id", msgId).put("content", "").put("attachment", attachment);
            }
        });
        page.put("messages_size", messages.size()).put("is_last", true);
        answer(exchange, "{\"code\":200,\"message\":\"ok\",\"data\":" + JSON.writeValueAsString(page) + "}");
    }

    void download(HttpExchange exchange) throws IOException {
        String key = exchange.getRequestHeaders().getFirst("app_id") + "/"
                + exchange.getRequestHeaders().getFirst("user_id") + "/" + ConsoleStack.query(exchange).get("file_id");
        if (!downloadable.containsKey(key)) {
            answer(exchange, "{\"code\":13006,\"message\":\"file_id: not in a conversation that received file\"}");
            return;
        }
        answer(exchange, "{\"code\":200,\"message\":\"ok\",\"data\":{\"url\":\"" + baseUrl + "/store/file\","
                + "\"expires_at\":0,\"thumbnail_url\":\"" + baseUrl + "/store/thumb?X-Amz-Signature=abc\"}}");
    }

    static void thumbnail(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "image/png");
        exchange.sendResponseHeaders(200, THUMBNAIL.length);
        exchange.getResponseBody().write(THUMBNAIL);
        exchange.close();
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static byte[] png(int width, int height) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB), "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

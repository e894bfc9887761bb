package io.imcore.console;

import static io.imcore.console.ConsoleBrowser.open;
import static io.imcore.console.ConsoleBrowser.screenshot;
import static io.imcore.console.ConsoleBrowser.signInAsAdmin;
import static io.imcore.console.ConsoleBrowser.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.testing.SharedInfrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;

/**
 * A traced message's attachment on the Message trace page (issue 50): read as the trace's recipient from the stand-in
 * of message-service ({@link FileMessageStandIn}), its name, type, size and dimensions, and an image's thumbnail
 * served by the console from the store's URL; an attachment that names no file shown as stored.
 */
class ConsoleAttachmentIT extends ConsoleBrowsing {

    private static final long RECIPIENT = 10017;
    private static final long SENDER = 10002;

    @Test
    void theTraceShowsAnImageAttachmentWithItsThumbnail() throws Exception {
        ConsoleStack.App app = stack.newApp("attachment");
        long image = traced(app, "{\"file_id\":1042,\"type\":\"image\",\"name\":\"beach.png\",\"size\":48213,"
                + "\"content_type\":\"image/png\",\"width\":640,\"height\":480}");
        stack.fileMessages.downloadable(app.id(), RECIPIENT, 1042);
        long plain = traced(app, "https://cdn.example.com/<b>old</b>.png");
        signInAsAdmin(app);

        open("/messages?msg_id=" + image);
        assertEquals("beach.png", text("attachment-name"));
        assertEquals("image (image/png)", text("attachment-type"));
        assertEquals("47.1 KiB", text("attachment-size"));
        assertEquals("640 × 480", text("attachment-dimensions"));
        Object width = ((JavascriptExecutor) browser).executeScript(
                "return document.getElementById('attachment-thumbnail').naturalWidth;");
        assertEquals(40L, width, "the thumbnail is loaded through the console (img-src 'self')");
        screenshot("message-trace-attachment");

        open("/messages?msg_id=" + plain);
        assertEquals("https://cdn.example.com/<b>old</b>.png", text("attachment-text"), "shown as stored, escaped");
        assertTrue(browser.findElements(By.id("attachment-thumbnail")).isEmpty());
    }

    /** A message id with one trace row (the recipient's device, a direct conversation with the sender). */
    private long traced(ConsoleStack.App app, String attachment) throws Exception {
        long msgId = 2_000_000L + ThreadLocalRandom.current().nextInt(1_000_000);
        try (Connection c = DriverManager.getConnection(SharedInfrastructure.get().jdbcUrl("push"), "postgres",
                "postgres"); PreparedStatement trace = c.prepareStatement("insert into offline_push_trace (app_id,"
                        + " msg_id, user_id, device_sn, conversation, decision, channel, state, reason, created_at,"
                        + " sent_at) values (?, ?, ?, 1, ?, 'live', null, 'decided', null, ?, null)")) {
            trace.setString(1, app.id());
            trace.setLong(2, msgId);
            trace.setLong(3, RECIPIENT);
            trace.setString(4, "u:" + SENDER);
            trace.setTimestamp(5, Timestamp.from(Instant.now()));
            trace.executeUpdate();
        }
        stack.fileMessages.message(app.id(), RECIPIENT, SENDER, msgId, attachment);
        return msgId;
    }
}

package io.imcore.console;

import static io.imcore.console.ConsoleBrowser.cells;
import static io.imcore.console.ConsoleBrowser.open;
import static io.imcore.console.ConsoleBrowser.path;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;

/**
 * A traced message's attachment on the Message trace page (issue 50): read as the trace's recipient from the stand-in
 * of message-service ({@link FileMessageStandIn}), its name, type, size and dimensions, and an image's thumbnail
 * served by the console from the store's URL; an attachment that names no file shown as stored. The user page's files
 * (message-service's {@code GET /file/list}), with an image's thumbnail, in English and Chinese.
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

    @Test
    void theUserPageListsTheUsersFilesWithTheirThumbnailsInBothLanguages() throws Exception {
        ConsoleStack.App app = stack.newApp("user-files");
        long user = stack.api("POST", stack.auth, "/user/register/v2", Map.of("app_id", app.id()),
                "{\"username\":\"uploader\",\"password\":\"Uploader-pass-1\"}").get("user_id").asLong();
        stack.fileMessages.files(app.id(), user, "[{\"file_id\":2077,\"name\":\"draft.txt\","
                + "\"content_type\":\"text/plain\",\"size\":5,\"state\":\"uploading\",\"thumbnail\":false,"
                + "\"created_at\":1780000100},{\"file_id\":2042,\"name\":\"<b>beach</b>.png\","
                + "\"content_type\":\"image/png\",\"type\":\"image\",\"size\":48213,\"state\":\"completed\","
                + "\"width\":640,\"height\":480,\"thumbnail\":true,\"created_at\":1780000000,\"msg_id\":3000042}]");
        stack.fileMessages.downloadable(app.id(), user, 2042);
        signInAsAdmin(app);

        open("/users?user_id=" + user);
        assertEquals(List.of("file-2077", "file-2042"), browser.findElements(By.xpath("//table[@id='files']/tbody/tr"))
                .stream().map(row -> row.getAttribute("id")).toList(), "newest first, as message-service lists them");
        assertEquals(List.of("", "draft.txt", "- (text/plain)", "5 B", "uploading", "2026-05-28 20:28:20 UTC",
                "-"), cells(By.id("file-2077")));
        assertEquals(List.of("", "<b>beach</b>.png", "image (image/png)", "47.1 KiB", "completed",
                "2026-05-28 20:26:40 UTC", "3000042"), cells(By.id("file-2042")), "the name escaped");
        Object width = ((JavascriptExecutor) browser).executeScript(
                "return document.getElementById('file-thumbnail-2042').naturalWidth;");
        assertEquals(40L, width, "the thumbnail is loaded through the console as the uploader");
        assertTrue(browser.findElements(By.id("file-thumbnail-2077")).isEmpty(), "no thumbnail for other files");
        screenshot("users-files");
        browser.findElement(By.linkText("3000042")).click();
        assertEquals("/console/messages", path());

        open("/language?lang=zh-CN&back=/console/users%3Fuser_id%3D" + user);
        assertEquals("上传中", cells(By.id("file-2077")).get(4));
        assertEquals("已完成", cells(By.id("file-2042")).get(4));
        assertTrue(browser.getPageSource().contains("文件（message-service，最新在前）"));
        open("/language?lang=en&back=/console/users%3Fuser_id%3D" + user);
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

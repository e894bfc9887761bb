package io.imcore.console;

import static io.imcore.console.ConsoleBrowser.cells;
import static io.imcore.console.ConsoleBrowser.open;
import static io.imcore.console.ConsoleBrowser.path;
import static io.imcore.console.ConsoleBrowser.screenshot;
import static io.imcore.console.ConsoleBrowser.signInAsAdmin;
import static io.imcore.console.ConsoleBrowser.submit;
import static io.imcore.console.ConsoleBrowser.text;
import static io.imcore.console.ConsoleBrowser.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.testing.SharedInfrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The composer's audience count, phone preview and confirmation before a push to all, and the scheduled pushes with
 * their Cancel button, in a real browser ({@link ConsoleBrowser}) on the shared stack ({@link ConsoleStack}).
 */
class ConsoleComposerIT extends ConsoleBrowsing {

    private static final List<String> CHANNELS =
            List.of("ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e", "svcpush");

    @Test
    void theComposerCountsTheAudiencePerChannelPreviewsThePushAndConfirmsAPushToAll() throws Exception {
        ConsoleStack.App app = appWithPushOn("composer");
        Map<String, Integer> registered = Map.of("ios", 3, "vendor_b", 2, "cloud", 1);
        registered.forEach((channel, devices) -> {
            for (int i = 0; i < devices; i++) {
                newDevice(app, channel, false);
            }
        });
        newDevice(app, null, true); // online, no provider token: svcpush
        newDevice(app, null, false); // offline, no provider token: unreachable

        signInAsAdmin(app);
        open("/push/new");
        new Select(browser.findElement(By.id("audience_kind"))).selectByValue("all");
        type("title", "Flash sale");
        type("body", "Half price today");
        submit("count-submit");
        for (String channel : CHANNELS) {
            int expected = channel.equals("svcpush") ? 1 : registered.getOrDefault(channel, 0);
            assertEquals(Integer.toString(expected), text("count-" + channel), channel);
        }
        assertEquals("8", text("count-devices"));
        assertEquals("7", text("count-targets"));
        assertEquals("Flash sale", text("preview-title"), "the form is kept and previewed");
        assertEquals("Half price today", text("preview-body"));

        // the preview follows the title as it is typed (htmx swaps the server's rendering in)
        type("title", "Flash sale: last hours");
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(d -> "Flash sale: last hours".equals(text("preview-title")));
        screenshot("composer-count");
        assertFitsAPhone();

        // to all: the first submit asks, and sends nothing
        submit("compose-submit");
        assertEquals("7", text("confirm-targets"));
        assertEquals("8", text("confirm-devices"));
        assertEquals(0, tasks(app).path("total").asInt(), "nothing sent before the confirmation");
        screenshot("composer-confirm");

        submit("confirm-send");
        String url = path();
        assertTrue(url.matches("/console/tasks/\\d+"), url);
        long taskId = Long.parseLong(url.substring(url.lastIndexOf('/') + 1));
        JsonNode detail = awaitExpanded(app, taskId);
        for (String channel : CHANNELS) {
            int expected = channel.equals("svcpush") ? 1 : registered.getOrDefault(channel, 0);
            assertEquals(expected, detail.path(channel + "_target").asInt(), "the count is what was targeted: " + channel);
        }
    }

    @Test
    void aScheduledPushIsListedAndCancelledAndNeverSent() throws Exception {
        ConsoleStack.App app = appWithPushOn("scheduled");
        newDevice(app, "vendor_b", false);
        long begin = Instant.now().getEpochSecond() + 3_600;
        long taskId = schedule(app, "Tomorrow's sale", begin);
        ConsoleStack.App other = appWithPushOn("scheduled-other");
        long othersTask = schedule(other, "Not yours", begin);

        signInAsAdmin(app);
        browser.findElement(By.linkText("Scheduled")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> path().equals("/console/scheduled"));
        List<String> row = cells(By.id("scheduled-" + taskId));
        assertEquals(Long.toString(taskId), row.get(0));
        assertEquals("Tomorrow's sale", row.get(2));
        assertEquals("all", row.get(4));
        assertTrue(browser.findElements(By.id("scheduled-" + othersTask)).isEmpty(), "another app's task is listed");
        assertEquals(List.of("Scheduled"), browser.findElements(By.cssSelector("header nav a[aria-current='page']"))
                .stream().map(WebElement::getText).toList(), "the navigation marks Scheduled, not Tasks");
        screenshot("scheduled");
        assertFitsAPhone();

        submit("cancel-" + taskId);
        assertEquals("Task " + taskId + " cancelled: it will not be sent.", text("notice"));
        assertEquals("No scheduled push.", text("no-scheduled"));

        open("/tasks/" + taskId);
        assertEquals("cancelled", text("task-state"));
        assertNull(browser.findElement(By.id("report")).getAttribute("hx-trigger"), "a cancelled task is final");
        assertEquals("cancelled", stack.api("POST", stack.push, "/push/task/detail", admin(app),
                "{\"list\":[" + taskId + "]}").get(0).path("state").asText());
        assertEquals("scheduled", stack.api("POST", stack.push, "/push/task/detail", admin(other),
                "{\"list\":[" + othersTask + "]}").get(0).path("state").asText());
    }

    /** The page as it is, at 390 px: nothing wider than the screen (the table of counts included). */
    private static void assertFitsAPhone() {
        browser.manage().window().setSize(ConsoleBrowser.PHONE);
        try {
            long width = (Long) ((JavascriptExecutor) browser).executeScript(
                    "return document.documentElement.scrollWidth");
            assertTrue(width <= ConsoleBrowser.PHONE.width, path() + " is " + width + " px wide at 390 px");
        } finally {
            browser.manage().window().setSize(ConsoleBrowser.DESKTOP);
        }
    }

    private static ConsoleStack.App appWithPushOn(String name) throws Exception {
        ConsoleStack.App app = stack.newApp(name);
        stack.api("POST", stack.push, "/push/enable?value=true", admin(app), "");
        return app;
    }

    private static Map<String, String> admin(ConsoleStack.App app) {
        return Map.of("app_id", app.id(), "access-token", app.adminToken());
    }

    /**
     * A device written into push-service's registry as its device feed writes one, with a provider token on the
     * channel (none when null) and online on svcpush or not. The count and the expansion read only these rows.
     */
    private static void newDevice(ConsoleStack.App app, String channel, boolean online) {
        long userId = 500_000 + (UUID.randomUUID().getLeastSignificantBits() & 0xffffff);
        try (Connection c = DriverManager.getConnection(SharedInfrastructure.get().jdbcUrl("push"), "postgres",
                "postgres")) {
            long deviceId;
            try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn,"
                    + " push_token) values (?, ?, 1, ?) returning device_id")) {
                ps.setString(1, app.id());
                ps.setLong(2, userId);
                ps.setString(3, "pt-" + UUID.randomUUID());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    deviceId = rs.getLong(1);
                }
            }
            if (channel != null) {
                try (PreparedStatement ps = c.prepareStatement("insert into push_device_tokens (device_id, channel,"
                        + " app_id, token, notifier_name, environment) values (?, ?, ?, ?, ?, 1)")) {
                    ps.setLong(1, deviceId);
                    ps.setString(2, channel);
                    ps.setString(3, app.id());
                    ps.setString(4, channel + "-" + UUID.randomUUID());
                    ps.setString(5, channel + "-prod");
                    ps.executeUpdate();
                }
            }
            if (online) {
                try (PreparedStatement ps = c.prepareStatement("insert into push_presence (app_id, user_id,"
                        + " device_sn, seq, online) values (?, ?, 1, 1, true)")) {
                    ps.setString(1, app.id());
                    ps.setLong(2, userId);
                    ps.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long schedule(ConsoleStack.App app, String title, long begin) throws Exception {
        return stack.api("POST", stack.push, "/push/notify", admin(app), "{\"audience\":\"all\",\"message\":{\"title\":\""
                + title + "\",\"show_begin_time\":" + begin + "}}").path("task_id").asLong();
    }

    private static JsonNode tasks(ConsoleStack.App app) throws Exception {
        return stack.api("GET", stack.push, "/push/task/list", admin(app), "");
    }

    private static JsonNode awaitExpanded(ConsoleStack.App app, long taskId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            JsonNode detail = stack.api("POST", stack.push, "/push/task/detail", admin(app),
                    "{\"list\":[" + taskId + "]}").get(0);
            String state = detail.path("state").asText();
            if (!List.of("accepted", "expanding").contains(state)) {
                return detail;
            }
            assertTrue(System.nanoTime() < deadline, "task " + taskId + " not expanded: " + state);
            Thread.sleep(200);
        }
    }
}

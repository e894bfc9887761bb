package io.imcore.console;

import static io.imcore.console.ConsoleBrowser.cells;
import static io.imcore.console.ConsoleBrowser.open;
import static io.imcore.console.ConsoleBrowser.path;
import static io.imcore.console.ConsoleBrowser.screenshot;
import static io.imcore.console.ConsoleBrowser.signInAsAdmin;
import static io.imcore.console.ConsoleBrowser.submit;
import static io.imcore.console.ConsoleBrowser.text;
import static io.imcore.console.ConsoleBrowser.type;
import static io.imcore.console.ConsoleStack.PLATFORM_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.simulators.Faults;
import io.imcore.testing.Eventually;
import io.imcore.testing.ServiceProcess;
import io.imcore.testing.SharedInfrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's main journeys in a real browser ({@link ConsoleBrowser}) on the shared stack ({@link ConsoleStack}). An
 * app admin signs in, switches push on, is refused a certificate (the API's message beside the field), uploads a valid
 * one, pushes to a device bound to it and watches the report reach done with the numbers of /push/task/detail, then
 * signs out; the operator manages apps and reads the System page; an admin traces a message's offline push.
 */
class ConsoleBrowserIT extends ConsoleBrowsing {

    private static ServiceProcess auth;
    private static ServiceProcess push;

    @BeforeAll
    static void services() {
        auth = stack.auth;
        push = stack.push;
    }

    @Test
    void anAppAdminPushesToADeviceAndWatchesItsReport() throws Exception {
        JsonNode app = stack.api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"console\"}");
        String appId = app.get("app_id").asText();
        String adminToken = app.get("admin_token").asText();

        // no session: any page leads to the sign-in page
        open("/tasks");
        assertEquals("/console/sign-in", path());
        screenshot("sign-in");

        // a form without its CSRF token is refused
        ((JavascriptExecutor) browser).executeScript(
                "document.querySelector('#admin-sign-in input[name=csrf]').remove()");
        type("app_id", appId);
        type("admin_token", adminToken);
        submit("admin-submit");
        assertTrue(text("refused").contains("CSRF token is missing"), text("refused"));
        assertEquals("/console/sign-in", path());

        open("/sign-in");
        type("app_id", appId);
        type("admin_token", adminToken);
        submit("admin-submit");
        assertEquals("/console/", path());
        assertEquals("off", text("push-state"), "a new app has push off");

        submit("push-on");
        assertEquals("Push switched on.", text("notice"));
        open("/");
        assertEquals("on", text("push-state"));
        assertEquals("3 files, 1.5 MiB", text("storage-use"), "the files' storage use (message-service's stand-in)");
        screenshot("overview");

        // a certificate the API refuses: its message beside the field it names
        open("/certificates");
        new Select(browser.findElement(By.id("provider"))).selectByValue("3");
        type("name", "mi-console");
        type("app_secret", "console-xiaomi-secret");
        submit("upload-submit");
        String appIdError = text("error-app_id");
        assertTrue(appIdError.startsWith("10002: app_id"), appIdError);
        screenshot("certificate-refused");

        new Select(browser.findElement(By.id("provider"))).selectByValue("3");
        type("name", "mi-console");
        type("cert_app_id", "com.example.console");
        type("app_secret", "console-xiaomi-secret");
        submit("upload-submit");
        assertEquals("Certificate mi-console saved.", text("upload-result"));
        String table = text("certificates");
        assertTrue(table.contains("mi-console") && table.contains("com.example.console"), table);
        assertFalse(browser.getPageSource().contains("console-xiaomi-secret"), "the secret reached the browser");
        screenshot("certificates");

        // test send: the Xiaomi simulator's answer, as it gave it
        String testToken = "console-test-" + UUID.randomUUID();
        testSend("3", "1", testToken);
        assertEquals("sent", text("test-outcome"), text("test-result"));
        assertEquals("200", text("test-status"));
        assertEquals("0", text("test-code"));
        assertTrue(text("test-answer").contains("Received push messages for 1 REGID"), text("test-answer"));
        assertEquals(1, stack.simulators.get("vendor_b").recorder().deliveriesTo(testToken));
        screenshot("certificate-test-sent");
        testSend("3", "1", Faults.INVALID_PREFIX + "-console-" + UUID.randomUUID());
        assertEquals("rejected", text("test-outcome"), text("test-result"));
        assertEquals("20301", text("test-code"));
        assertTrue(text("test-answer").contains("No valid targets!"), text("test-answer"));
        screenshot("certificate-test-rejected");
        testSend("3", "0", testToken);
        assertTrue(text("test-error").startsWith("Not sent: 10002: provider: the app has no certificate"),
                text("test-error"));

        // a user's device, bound to the new certificate through the API as an app would
        String deviceToken = "console-device-" + UUID.randomUUID();
        long userId = stack.api("POST", auth, "/user/register/v2", Map.of("app_id", appId),
                "{\"username\":\"console_user\",\"password\":\"console-pass-1\"}").get("user_id").asLong();
        JsonNode login = stack.api("POST", auth, "/token/user", Map.of("app_id", appId),
                "{\"name\":\"console_user\",\"password\":\"console-pass-1\",\"device_guid\":\"console-phone\"}");
        stack.api("POST", push, "/user/token/bind", Map.of("app_id", appId, "access-token", login.get("token").asText()),
                "{\"device_sn\":" + login.get("device_sn").asInt() + ",\"device_token\":\"" + deviceToken
                        + "\",\"notifier_name\":\"mi-console\"}");

        open("/push/new");
        new Select(browser.findElement(By.id("audience_kind"))).selectByValue("user_id");
        type("audience_values", Long.toString(userId));
        type("title", "Hello from the console");
        type("body", "A push composed in the browser");
        new Select(browser.findElement(By.id("strategy"))).selectByValue("ospush_only");
        screenshot("composer");
        // the provider answers slowly, so the report opens before the task is final and must refresh itself
        stack.simulators.get("vendor_b").setLatencyMillis(3_000);
        submit("compose-submit");
        String url = path();
        assertTrue(url.matches("/console/tasks/\\d+"), url);
        long taskId = Long.parseLong(url.substring(url.lastIndexOf('/') + 1));

        // the report refreshes itself (htmx) until the task is final
        assertFalse(List.of("done", "expired", "failed").contains(text("task-state")), text("task-state"));
        assertEquals("every 2s", browser.findElement(By.id("report")).getAttribute("hx-trigger"));
        new WebDriverWait(browser, Duration.ofSeconds(60)).until(d -> "done".equals(text("task-state")));
        assertEquals(null, browser.findElement(By.id("report")).getAttribute("hx-trigger"), "a final report stops");
        stack.simulators.get("vendor_b").setLatencyMillis(0);
        JsonNode detail = stack.api("POST", push, "/push/task/detail",
                Map.of("app_id", appId, "access-token", adminToken), "{\"list\":[" + taskId + "]}").get(0);
        for (String counter : List.of("target", "sent", "received")) {
            assertEquals(detail.get("vendor_b_" + counter).asText(), text("vendor_b-" + counter), counter);
        }
        assertEquals("1", text("vendor_b-sent"));
        assertTrue(stack.simulators.get("vendor_b").recorder().deliveriesTo(deviceToken) >= 1,
                "the Xiaomi simulator received the push");
        screenshot("report");

        // the task list shows the task with its totals over all channels
        open("/tasks");
        List<String> taskRow = cells(By.id("task-" + taskId));
        assertEquals("done", taskRow.get(2), taskRow.toString());
        assertEquals(List.of("1", "1"), taskRow.subList(4, 6), "target and sent: " + taskRow);
        screenshot("tasks");

        // trends: today's Xiaomi row in the table, and the uPlot chart drawn from the bundled web jar
        open("/trends");
        List<String> today = cells(By.xpath("//table[@id='trend-table']/tbody/tr[td[2]='vendor_b']"));
        assertEquals(LocalDate.now(ZoneOffset.UTC).toString(), today.get(0), today.toString());
        assertEquals("1", today.get(3), "sent: " + today);
        assertFalse(browser.findElements(By.cssSelector("#trend-chart canvas")).isEmpty(), "the chart is drawn");
        screenshot("trends");

        // users: the user's device (auth-service); disable (confirmed) and enable (PUT, CSRF)
        open("/users?user_id=" + userId);
        assertTrue(text("devices").contains("console-phone"), text("devices"));
        screenshot("users");
        submit("user-disable");
        submit("user-disable-confirm");
        assertEquals("User " + userId + " disabled.", text("notice"));
        submit("user-enable");
        assertEquals("User " + userId + " enabled.", text("notice"));

        submit("sign-out");
        assertEquals("/console/sign-in", path());
        open("/");
        assertEquals("/console/sign-in", path(), "the session ended at sign-out");
    }

    @Test
    void theOperatorManagesAppsAndReadsTheSystemPage() throws Exception {
        JsonNode existing = stack.api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY),
                "{\"name\":\"listed\"}");
        open("/sign-in");
        type("platform_key", PLATFORM_KEY);
        submit("operator-submit");
        assertEquals("/console/apps", path());
        assertTrue(text("app-" + existing.get("app_id").asText()).contains("listed"), text("apps"));

        type("app_name", "made-in-the-console");
        submit("create-app-submit");
        String created = text("issued");
        assertTrue(created.contains("created"), created);
        String createdId = browser.findElement(By.cssSelector("#issued strong")).getText().strip();
        assertTrue(text("app-" + createdId).contains("made-in-the-console"), text("apps"));

        // a rotated admin token is shown once: it works, the old one does not, and the page does not show it again
        String oldToken = existing.get("admin_token").asText();
        submit("rotate-" + existing.get("app_id").asText());
        submit("rotate-confirm"); // the first submit asks (ConsoleShellIT)
        String newToken = text("issued-token");
        assertFalse(newToken.isEmpty() || newToken.equals(oldToken), newToken);
        screenshot("apps");
        Eventually.until(Duration.ofSeconds(20), "the new admin token works", () -> call(push, "/push/enable",
                existing.get("app_id").asText(), newToken).path("code").asInt() == 200);
        // push-service learns of the rotation from auth.events
        Eventually.until(Duration.ofSeconds(20), "the old admin token is refused", () -> call(push, "/push/enable",
                existing.get("app_id").asText(), oldToken).path("code").asInt() != 200);
        open("/apps");
        assertTrue(browser.findElements(By.id("issued-token")).isEmpty(), "the token is shown once only");
        assertFalse(browser.getPageSource().contains(newToken), "the token is kept nowhere");

        // system: the started services are ready; the lag table has a row per channel from push-service
        open("/system");
        for (String service : List.of("auth", "push", "push-worker")) {
            List<String> row = cells(By.xpath("//table[@id='health']/tbody/tr[td[1]='" + service + "']"));
            assertEquals("UP", row.get(1), service + ": " + row);
        }
        List<String> xiaomi = cells(By.xpath("//table[@id='lag']/tbody/tr[td[1]='vendor_b']"));
        assertEquals(List.of("vendor_b", "push.vendor_b", "push-worker.vendor_b"), xiaomi.subList(0, 3));
        assertTrue(xiaomi.get(4).matches("\\d+"), "lag: " + xiaomi);
        assertEquals(8, browser.findElements(By.cssSelector("#lag tbody tr")).size(), "a row per channel");
        screenshot("system");
        submit("sign-out");
    }

    @Test
    void anAppAdminTracesAMessagesOfflinePushAndReadsItsDailyCounts() throws Exception {
        JsonNode app = stack.api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"trace\"}");
        String appId = app.get("app_id").asText();
        long msgId = 1_000_000L + ThreadLocalRandom.current().nextInt(1_000_000);
        Instant decided = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(90);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        // push-service's and push-worker's rows as they would have written them (docs/offline-push.md), plus a row
        // of another app under the same message id, which the page must not show
        try (Connection c = DriverManager.getConnection(SharedInfrastructure.get().jdbcUrl("push"), "postgres",
                "postgres")) {
            try (PreparedStatement trace = c.prepareStatement("insert into offline_push_trace (app_id, msg_id, user_id,"
                    + " device_sn, conversation, decision, channel, state, reason, created_at, sent_at)"
                    + " values (?, ?, ?, ?, 'g:1000000000000', ?, ?, ?, ?, ?, ?)")) {
                Object[][] rows = {
                    {appId, 10017L, 1, "offline_push", "vendor_b", "sent", null, 1},
                    {appId, 10017L, 2, "live", null, "decided", null, null},
                    {appId, 10018L, 1, "muted", null, "decided", null, null},
                    {appId, 10019L, 0, "no_device", null, "decided", null, null},
                    {appId, 10020L, 3, "offline_push", "vendor_a", "rejected", "80300007 invalid token", 2},
                    {appId, 10021L, 1, "do_not_disturb", null, "decided", null, null},
                    {appId, 10022L, 1, "no_token", null, "decided", null, null},
                    {"another-app", 99999L, 1, "offline_push", "ios", "sent", null, 1}};
                for (Object[] row : rows) {
                    trace.setString(1, (String) row[0]);
                    trace.setLong(2, msgId);
                    trace.setLong(3, (Long) row[1]);
                    trace.setInt(4, (Integer) row[2]);
                    trace.setString(5, (String) row[3]);
                    trace.setString(6, (String) row[4]);
                    trace.setString(7, (String) row[5]);
                    trace.setString(8, (String) row[6]);
                    trace.setTimestamp(9, Timestamp.from(decided));
                    trace.setTimestamp(10, row[7] == null ? null
                            : Timestamp.from(decided.plusSeconds((Integer) row[7])));
                    trace.addBatch();
                }
                trace.executeBatch();
            }
            try (PreparedStatement daily = c.prepareStatement("insert into offline_push_daily (app_id, day, channel,"
                    + " sent, failed, rejected, received) values (?, ?, ?, ?, ?, ?, ?)")) {
                Object[][] rows = {
                    {today, "vendor_b", 5, 2, 1, 0},
                    {today.minusDays(1), "vendor_a", 3, 0, 0, 4},
                    {today.minusDays(10), "vendor_b", 9, 9, 9, 9}}; // outside days=7
                for (Object[] row : rows) {
                    daily.setString(1, appId);
                    daily.setObject(2, row[0]);
                    daily.setString(3, (String) row[1]);
                    for (int i = 2; i < 6; i++) {
                        daily.setLong(i + 2, (Integer) row[i]);
                    }
                    daily.addBatch();
                }
                daily.executeBatch();
            }
        }

        signInAsAdmin(new ConsoleStack.App(appId, app.get("admin_token").asText()));
        browser.findElement(By.linkText("Message trace")).click();
        assertEquals("/console/messages", path());
        type("msg_id", Long.toString(msgId));
        submit("trace-submit");
        assertEquals(7, browser.findElements(By.cssSelector("#trace tbody tr")).size(), text("trace"));
        assertEquals("Message " + msgId, browser.findElement(By.tagName("h2")).getText());
        String decidedText = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC)
                .format(decided);
        // user, device, conversation, decision, channel, state, reason, decided, sent, received
        assertEquals(List.of("10017", "1", "group 1000000000000", "offline push", "vendor_b", "sent", "-",
                decidedText, DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC)
                        .format(decided.plusSeconds(1)), "-"), cells(By.id("trace-10017-1")));
        assertEquals(List.of("offline push", "vendor_a", "rejected", "80300007 invalid token"),
                cells(By.id("trace-10020-3")).subList(3, 7));
        Map<String, String> decisions = Map.of("trace-10017-2", "live (socket)", "trace-10018-1", "muted",
                "trace-10019-0", "no device", "trace-10021-1", "do not disturb", "trace-10022-1", "no provider token");
        decisions.forEach((row, decision) -> {
            List<String> cells = cells(By.id(row));
            assertEquals(List.of(decision, "-", "decided"), cells.subList(3, 6), row + ": " + cells);
        });
        assertEquals("none", cells(By.id("trace-10019-0")).get(1), "device_sn 0 is no device");
        assertTrue(browser.findElements(By.id("trace-99999-1")).isEmpty(), "another app's row is shown");
        assertEquals("7 recipient devices, 1 notified through a provider.", text("trace-summary"));
        screenshot("message-trace");

        // not a number: said without the API; a number the API refuses: its 10002; an id without rows
        type("msg_id", "abc");
        submit("trace-submit");
        assertEquals("msg_id must be a number, not \"abc\".", text("trace-error"));
        assertTrue(browser.findElements(By.id("trace")).isEmpty(), "no table for a bad id");
        open("/messages?msg_id=%3Cb%3E1%3C%2Fb%3E");
        assertEquals("msg_id must be a number, not \"<b>1</b>\".", text("trace-error"), "escaped as text");
        type("msg_id", "0");
        submit("trace-submit");
        assertEquals("Trace not available: 10002: msg_id: must be between 1 and " + Long.MAX_VALUE,
                text("trace-error"));
        type("msg_id", Long.toString(msgId + 1));
        submit("trace-submit");
        assertEquals("No offline push recorded for message " + (msgId + 1) + ": it is older than 7 days, its app"
                + " has offline push off, or the id is wrong.", text("trace-empty"));
        assertTrue(browser.findElements(By.id("trace")).isEmpty(), "no table for an id without rows");

        // trends: the offline figures of the page's days, apart from the task figures
        open("/trends?days=7");
        assertEquals(2, browser.findElements(By.cssSelector("#offline-table tbody tr")).size(), text("offline-table"));
        assertEquals(List.of(today.toString(), "vendor_b", "5", "2", "1", "0"),
                cells(By.xpath("//table[@id='offline-table']/tbody/tr[td[2]='vendor_b']")));
        assertEquals(List.of(today.minusDays(1).toString(), "vendor_a", "3", "0", "0", "4"),
                cells(By.xpath("//table[@id='offline-table']/tbody/tr[td[2]='vendor_a']")));
        ((JavascriptExecutor) browser).executeScript("document.getElementById('offline-push').scrollIntoView()");
        screenshot("trends-offline-push");
        open("/trends?days=30");
        assertEquals(3, browser.findElements(By.cssSelector("#offline-table tbody tr")).size(), text("offline-table"));
        submit("sign-out");
    }

    @Test
    void aGroupLookupShowsTheGroupAndItsMembers() throws Exception {
        JsonNode app = stack.api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"groups\"}");
        signInAsAdmin(new ConsoleStack.App(app.get("app_id").asText(), app.get("admin_token").asText()));
        open("/users?group_id=7");
        assertEquals("", text("group-error"));
        assertEquals("", text("members-error"));
        assertTrue(text("group-info").contains("console-group-7"), text("group-info"));
        assertEquals(List.of("10001", "owner"), cells(By.xpath("//table[@id='members']/tbody/tr[1]")).subList(0, 2));
        assertEquals(List.of("10002", "member"), cells(By.xpath("//table[@id='members']/tbody/tr[2]")).subList(0, 2));
        submit("sign-out");
    }

    @Test
    void trendsSaysWhichDaysItTakes() throws Exception {
        JsonNode app = stack.api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"days\"}");
        signInAsAdmin(new ConsoleStack.App(app.get("app_id").asText(), app.get("admin_token").asText()));
        for (String days : List.of("abc", "91", "500", "0", "-3", "1.5")) {
            open("/trends?days=" + days);
            assertEquals("/console/trends", path(), days);
            assertEquals("days must be 1 to 90, not \"" + days + "\".", text("days-error"), days);
            assertTrue(browser.findElements(By.id("trend-table")).isEmpty(), days + ": no figures for a bad range");
        }
        for (String days : List.of("1", "90")) {
            open("/trends?days=" + days);
            assertEquals("", text("days-error"), days);
            assertEquals("Trends: the last " + days + " days (UTC)", browser.findElement(By.tagName("h1")).getText());
            assertFalse(browser.findElements(By.id("trend-table")).isEmpty(), days);
        }
        submit("sign-out");
    }

    @Test
    void anAppAdminReadsTheReceiptCallbackUrlsAndRotatesTheirKey() throws Exception {
        ConsoleStack.App app = stack.newApp("receipts");
        signInAsAdmin(app);
        open("/certificates");
        String before = text("receipt-url-vendor_a");
        assertTrue(before.contains("/push/receipt/vendor_a/" + app.id() + "?key="), before);
        assertEquals(List.of("vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e"),
                browser.findElements(By.cssSelector("#receipt-callbacks tbody td:first-child")).stream()
                        .map(WebElement::getText).sorted().toList());

        // the first submit only asks: the key is still the same
        submit("receipt-rotate");
        assertTrue(text("receipt-rotate-confirmation").contains("The old one is refused at once"),
                text("receipt-rotate-confirmation"));
        assertEquals(before, text("receipt-url-vendor_a"));
        submit("receipt-rotate-confirm");
        assertEquals("/console/certificates", path());
        assertEquals("Receipt key rotated: enter the new callback URLs in the providers' consoles.", text("notice"));
        String after = text("receipt-url-vendor_a");
        assertTrue(after.contains("/push/receipt/vendor_a/" + app.id() + "?key="), after);
        assertFalse(after.equals(before), "the rotation changed the URL");
        JsonNode current = stack.api("GET", push, "/push/receipt_key",
                Map.of("app_id", app.id(), "access-token", app.adminToken()), "");
        assertEquals(current.path("callbacks").path("vendor_a").asText(), after, "the page shows push-service's key");
        submit("sign-out");
    }

    private static void testSend(String provider, String environment, String token) {
        open("/certificates");
        new Select(browser.findElement(By.id("test_provider"))).selectByValue(provider);
        new Select(browser.findElement(By.id("test_environment"))).selectByValue(environment);
        type("test_token", token);
        submit("test-submit");
    }

    /** A GET as the app's admin, whatever it answers. */
    private static JsonNode call(ServiceProcess service, String path, String appId, String adminToken)
            throws Exception {
        return stack.send("GET", service, path, Map.of("app_id", appId, "access-token", adminToken), "");
    }
}

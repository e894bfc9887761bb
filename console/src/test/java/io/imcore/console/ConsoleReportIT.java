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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.testing.SharedInfrastructure;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The task report (what was sent, by whom, deliveries over time), the CSV downloads, and the report, task list and
 * Trends telling the truth: an expanding or scheduled task is not "no device", ios and cloud receipts are "not
 * measured", every chart series has its own colour, a bad task id is answered.
 */
class ConsoleReportIT extends ConsoleBrowsing {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Map<String, String> admin(ConsoleStack.App app) {
        return Map.of("app_id", app.id(), "access-token", app.adminToken());
    }

    /** An app with push on. */
    private static ConsoleStack.App pushApp(String name) throws Exception {
        ConsoleStack.App app = stack.newApp(name);
        stack.api("POST", stack.push, "/push/enable?value=true", admin(app), "");
        return app;
    }

    @Test
    void theReportSaysWhatWasSentByWhomAndDrawsTheDeliveries() throws Exception {
        ConsoleStack.App app = pushApp("report");
        stack.api("POST", stack.push, "/push/certificate", admin(app), "{\"provider\":3,\"environment\":1,"
                + "\"name\":\"mi-report\",\"app_id\":\"com.example.report\",\"app_secret\":\"report-secret\"}");
        String deviceToken = "report-device-" + UUID.randomUUID();
        long userId = stack.api("POST", stack.auth, "/user/register/v2", Map.of("app_id", app.id()),
                "{\"username\":\"report_user\",\"password\":\"report-pass-1\"}").get("user_id").asLong();
        JsonNode login = stack.api("POST", stack.auth, "/token/user", Map.of("app_id", app.id()),
                "{\"name\":\"report_user\",\"password\":\"report-pass-1\",\"device_guid\":\"report-phone\"}");
        stack.api("POST", stack.push, "/user/token/bind", Map.of("app_id", app.id(), "access-token",
                login.get("token").asText()), "{\"device_sn\":" + login.get("device_sn").asInt()
                + ",\"device_token\":\"" + deviceToken + "\",\"notifier_name\":\"mi-report\"}");

        signInAsAdmin(app);
        open("/push/new");
        new Select(browser.findElement(By.id("audience_kind"))).selectByValue("user_id");
        type("audience_values", Long.toString(userId));
        // a title a spreadsheet would run as a formula, a body with what CSV must quote
        String title = "=1+1 促销";
        String body = "Half price, \"today\"";
        type("title", title);
        type("body", body);
        new Select(browser.findElement(By.id("strategy"))).selectByValue("ospush_only");
        // a slow provider: the report opens before the task is done and htmx swaps the rest in, chart included
        stack.simulators.get("vendor_b").setLatencyMillis(3_000);
        long taskId;
        try {
            submit("compose-submit");
            String url = path();
            assertTrue(url.matches("/console/tasks/\\d+"), url);
            taskId = Long.parseLong(url.substring(url.lastIndexOf('/') + 1));
            assertEquals("Nothing delivered yet.", text("no-deliveries"));
            new WebDriverWait(browser, Duration.ofSeconds(60)).until(d -> "done".equals(text("task-state")));
        } finally {
            stack.simulators.get("vendor_b").setLatencyMillis(0);
        }
        assertFalse(browser.findElements(By.cssSelector("#delivery-chart canvas")).isEmpty(),
                "the chart of a swapped-in report is drawn");

        assertEquals(title, text("sent-title"));
        assertEquals(body, text("sent-body"));
        assertEquals("user_id: " + userId, text("sent-audience"));
        assertEquals("ospush_only (OS channels: vendor_a, vendor_b, vendor_c, vendor_d, vendor_e, cloud)",
                text("sent-strategy"));
        assertEquals("the app admin, in this console (admin token version 1)", text("sent-by"));

        // the provider's receipt, as Xiaomi posts it to the app's callback URL: received gets a time of its own
        String callback = stack.api("GET", stack.push, "/push/receipt_key", admin(app), "").path("callbacks")
                .path("vendor_b").asText();
        stack.api("POST", stack.push, callback, Map.of(),
                "{\"m1\":{\"param\":\"" + taskId + "\",\"type\":1,\"targets\":\"" + deviceToken + "\"}}");
        open("/tasks/" + taskId);
        assertEquals("1", text("vendor_b-received"));
        assertFalse(browser.findElements(By.cssSelector("#delivery-chart canvas")).isEmpty(), "the chart is drawn");
        assertEquals(List.of("vendor_b sent", "vendor_b received"), legend("delivery-chart"));
        screenshot("report-what-was-sent");

        // the report as CSV: the request, the funnel and the timeline, the formula neutralised
        HttpResponse<String> report = download("/tasks/" + taskId + "/report.csv");
        assertCsv(report, "task-" + taskId + "-report.csv");
        List<String> lines = report.body().substring(1).lines().toList();
        assertEquals("task_id,section,field,value,channel,time_utc,target,sent,received,failed,rejected,outcome,"
                + "reason,count", lines.get(0));
        assertTrue(lines.contains(taskId + ",request,title,\"'=1+1 促销\",,,,,,,,,,"), report.body());
        assertTrue(lines.contains(taskId + ",request,body,\"Half price, \"\"today\"\"\",,,,,,,,,,"), report.body());
        assertTrue(lines.contains(taskId + ",funnel,,,vendor_b,,1,1,1,0,0,,,"), report.body());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(taskId + ",timeline,,,vendor_b,")), report.body());
        assertEquals(browser.findElement(By.id("report-csv")).getAttribute("href"),
                ConsoleStack.get().console.baseUrl() + "/console/tasks/" + taskId + "/report.csv");

        // the task list as CSV: every task of the filters, same quoting
        open("/tasks");
        HttpResponse<String> tasks = download(URI.create(browser.findElement(By.id("tasks-csv"))
                .getAttribute("href")).getRawPath());
        assertCsv(tasks, "tasks.csv");
        List<String> taskLines = tasks.body().substring(1).lines().toList();
        assertEquals("task_id,accepted_utc,state,title,body,request_id,target,sent,received,failed,rejected",
                taskLines.get(0));
        assertTrue(taskLines.get(1).startsWith(taskId + ","), tasks.body());
        assertTrue(taskLines.get(1).endsWith(",done,\"'=1+1 促销\",\"Half price, \"\"today\"\"\",,1,1,1,0,0"),
                taskLines.get(1));
        // the trends as CSV
        HttpResponse<String> trends = download("/trends.csv?days=7");
        assertCsv(trends, "trends-7-days.csv");
        assertTrue(trends.body().contains("\r\npush tasks," + LocalDate.now(ZoneOffset.UTC) + ",vendor_b,1,1,1,0,0\r\n"),
                trends.body());
        submit("sign-out");
    }

    @Test
    void anExpandingAndAScheduledTaskSayWhatTheyAreDoing() throws Exception {
        ConsoleStack.App app = pushApp("pending");
        long begin = Instant.now().plus(Duration.ofDays(1)).getEpochSecond();
        long scheduled = stack.api("POST", stack.push, "/push/notify", admin(app), "{\"audience\":\"all\","
                + "\"message\":{\"title\":\"later\",\"show_begin_time\":" + begin + "}}").get("task_id").asLong();
        // a task caught while its audience is expanded: the row as the expander leaves it, kept from being picked up
        long expanding;
        try (Connection c = pushDatabase(); PreparedStatement ps = c.prepareStatement("insert into push_tasks"
                + " (app_id, state, request, retry_at) select app_id, 'expanding', request, now() + interval '1 day'"
                + " from push_tasks where task_id = ? returning task_id")) {
            ps.setLong(1, scheduled);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                expanding = rs.getLong(1);
            }
        }

        signInAsAdmin(app);
        open("/tasks/" + scheduled);
        assertEquals("scheduled", text("task-state"));
        assertEquals("Scheduled for " + UTC.format(Instant.ofEpochSecond(begin)) + ".", text("no-funnel"));
        assertEquals("the app admin token, through the API (admin token version 1)", text("sent-by"));
        open("/tasks/" + expanding);
        assertEquals("expanding", text("task-state"));
        assertEquals("Expanding the audience…", text("no-funnel"));
        screenshot("report-expanding");
        submit("sign-out");
    }

    @Test
    void receivedIsNotMeasuredForIosAndCloudInTheTaskListAndTrends() throws Exception {
        ConsoleStack.App app = pushApp("unmeasured");
        long iosOnly = doneTask(app, Map.of("ios", new int[] {2, 2}, "cloud", new int[] {1, 1}));
        long mixed = doneTask(app, Map.of("ios", new int[] {3, 3}, "vendor_b", new int[] {2, 2}));

        signInAsAdmin(app);
        open("/tasks");
        // target, sent, received
        assertEquals(List.of("3", "3", "not measured"), cells(By.id("task-" + iosOnly)).subList(4, 7));
        assertEquals(List.of("5", "5", "1"), cells(By.id("task-" + mixed)).subList(4, 7));
        assertTrue(text("received-note").contains("ios and cloud send none"), text("received-note"));

        open("/trends?days=1");
        assertEquals("not measured", trendRow("ios").get(4), "received of ios");
        assertEquals("not measured", trendRow("cloud").get(4), "received of cloud");
        assertEquals("1", trendRow("vendor_b").get(4), "received of vendor_b");

        // the chart: sent and failed of one channel never share a colour, and each series has its own
        List<WebElement> markers = browser.findElements(
                By.cssSelector("#trend-chart .u-legend .u-series:not(:first-child) .u-marker"));
        List<String> labels = legend("trend-chart");
        assertEquals(List.of("cloud sent", "cloud failed", "ios sent", "ios failed", "vendor_b sent",
                "vendor_b failed"), labels);
        Set<String> colours = new HashSet<>();
        for (int i = 0; i < markers.size(); i++) {
            colours.add(markers.get(i).getCssValue("border-top-color"));
            assertEquals(labels.get(i).endsWith("failed") ? "dashed" : "solid",
                    markers.get(i).getCssValue("border-top-style"), labels.get(i) + "'s marker, like its line");
        }
        assertEquals(6, colours.size(), "a colour per series: " + colours);
        ((JavascriptExecutor) browser).executeScript("document.getElementById('trend-chart').scrollIntoView()");
        screenshot("trends-series");
        submit("sign-out");
    }

    @Test
    void openTaskIdSaysWhyItCannotOpenIt() throws Exception {
        signInAsAdmin(pushApp("open"));
        open("/tasks");
        type("open_task_id", "abc");
        submit("open-submit");
        assertEquals("task id must be a number, not \"abc\".", text("open-error"));
        assertFalse(browser.findElements(By.id("task-table")).isEmpty(), "the list is still there");
        type("open_task_id", "999999999999");
        submit("open-submit");
        assertEquals("/console/tasks/999999999999", path());
        assertEquals("No task 999999999999 in this app.", text("report-error"));
        open("/tasks/abc");
        assertEquals("task id must be a number, not \"abc\".", text("report-error"));
        submit("sign-out");
    }

    /** A done task accepted now whose channels had {target, sent}; Xiaomi also received one. */
    private static long doneTask(ConsoleStack.App app, Map<String, int[]> counts) throws Exception {
        try (Connection c = pushDatabase()) {
            long taskId;
            try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request,"
                    + " finished_at) values (?, 'done', ?::jsonb, now()) returning task_id")) {
                ps.setString(1, app.id());
                ps.setString(2, "{\"audience\":{\"form\":\"ALL\",\"values\":[],\"user_ids\":[]},"
                        + "\"strategy\":\"COMBINED\",\"os_sequence\":[\"cloud\"],\"message\":{\"type\":\"text\","
                        + "\"title\":\"t\",\"body\":\"b\",\"badge\":\"+1\"}}");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    taskId = rs.getLong(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("insert into push_task_counts (task_id, channel, target,"
                    + " sent, received) values (?, ?, ?, ?, ?)")) {
                for (Map.Entry<String, int[]> entry : counts.entrySet()) {
                    ps.setLong(1, taskId);
                    ps.setString(2, entry.getKey());
                    ps.setInt(3, entry.getValue()[0]);
                    ps.setInt(4, entry.getValue()[1]);
                    ps.setInt(5, entry.getKey().equals("vendor_b") ? 1 : 0);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return taskId;
        }
    }

    private static Connection pushDatabase() throws Exception {
        return DriverManager.getConnection(SharedInfrastructure.get().jdbcUrl("push"), "postgres", "postgres");
    }

    private static List<String> trendRow(String channel) {
        return cells(By.xpath("//table[@id='trend-table']/tbody/tr[td[2]='" + channel + "']"));
    }

    /** The chart's legend labels, the x axis left out. */
    private static List<String> legend(String chartId) {
        return browser.findElements(By.cssSelector("#" + chartId + " .u-legend .u-series .u-label")).stream()
                .map(WebElement::getText).filter(label -> !label.equals("Time") && !label.isEmpty()).toList();
    }

    /** A console download with the browser's session cookie. */
    private static HttpResponse<String> download(String consolePath) throws Exception {
        String cookie = browser.manage().getCookieNamed("console_session").getValue();
        return HTTP.send(HttpRequest.newBuilder(URI.create(stack.console.baseUrl()
                + (consolePath.startsWith("/console") ? consolePath : "/console" + consolePath)))
                .header("Cookie", "console_session=" + cookie).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertCsv(HttpResponse<String> response, String filename) {
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("text/csv;charset=utf-8", response.headers().firstValue("Content-Type").orElse("")
                .replace(" ", "").toLowerCase());
        assertEquals("attachment; filename=\"" + filename + "\"",
                response.headers().firstValue("Content-Disposition").orElse(""));
        assertTrue(response.body().startsWith("\uFEFF"), "a byte order mark for Excel");
        assertTrue(response.body().contains("\r\n"), "CRLF lines");
    }
}

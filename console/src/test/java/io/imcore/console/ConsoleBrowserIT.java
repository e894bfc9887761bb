package io.imcore.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Simulators;
import io.imcore.testing.Eventually;
import io.imcore.testing.ServiceProcess;
import io.imcore.testing.SharedInfrastructure;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless Chromium (Debian's chromium and chromedriver, installed by
 * deploy/local/install-browser.sh) against the real packaged services as processes: auth-service, push-service and
 * push-worker on the shared embedded PostgreSQL and Kafka, push-worker's vendor_b channel pointed at the Xiaomi
 * simulator. An app admin signs in, switches push on, is refused a certificate (the API's message beside the field),
 * uploads a valid one, pushes to a device bound to it and watches the report reach done with the numbers of
 * /push/task/detail, then signs out. Screenshots of each page go to target/console-screenshots/, or to docs/console/ with
 * {@code -Dconsole.screenshots=update} (the app id changes on every run, so the committed ones are refreshed on purpose only).
 */
class ConsoleBrowserIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String PLATFORM_KEY = "console-it-platform-key";
    /** 32 bytes, base64: the certificate sealing key push-service and push-worker share. */
    private static final String CERTIFICATE_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = "update".equals(System.getProperty("console.screenshots"))
            ? Path.of("../docs/console")
            : Path.of("target/console-screenshots");

    private static Simulators simulators;
    private static ServiceProcess auth;
    private static ServiceProcess push;
    private static ServiceProcess worker;
    private static ServiceProcess console;
    private static HttpServer messageService;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("Chromium or chromedriver is missing: run deploy/local/install-browser.sh");
        }
        SharedInfrastructure infrastructure = SharedInfrastructure.get();
        try (Connection c = DriverManager.getConnection(infrastructure.jdbcUrl(), "postgres", "postgres");
                Statement statement = c.createStatement()) {
            statement.execute("create database auth");
            statement.execute("create database push");
        }
        Path simulatorDir = Files.createTempDirectory("console-simulators");
        simulators = Simulators.start(simulatorDir, 0);
        Map<String, String> common = Map.of("im.platform-key", PLATFORM_KEY);
        auth = ServiceProcess.start("auth-service", Path.of("../auth-service"),
                with(common, "quarkus.datasource.jdbc.url", infrastructure.jdbcUrl("auth")));
        Map<String, String> pushConfig = with(common, "quarkus.datasource.jdbc.url", infrastructure.jdbcUrl("push"));
        pushConfig.put("im.push.certificate-key", CERTIFICATE_KEY);
        Map<String, String> serviceConfig = new HashMap<>(pushConfig);
        serviceConfig.put("im.auth-service.url", auth.baseUrl());
        serviceConfig.put("im.push.receipt-key", "console-it-receipts");
        int workerPort = ServiceProcess.freePort();
        serviceConfig.put("im.push.worker-url", "http://127.0.0.1:" + workerPort);
        push = ServiceProcess.start("push-service", Path.of("../push-service"), serviceConfig);
        Map<String, String> workerConfig = new HashMap<>(pushConfig);
        String xiaomi = "http://127.0.0.1:" + simulators.get("vendor_b").port();
        workerConfig.put("im.push.worker.channels", "vendor_b");
        workerConfig.put("im.push.worker.channel.vendor_b.base-url", xiaomi);
        workerConfig.put("im.push.worker.channel.vendor_b.development-base-url", xiaomi);
        worker = ServiceProcess.start("push-worker", Path.of("../push-worker"), workerConfig, workerPort);
        // message-service is not started (it would slow this test by more than its group lookup is worth): a stand-in
        // answers its two group reads the way GroupResource does, group_id read from the query only
        messageService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        messageService.createContext("/group/", ConsoleBrowserIT::groupStandIn);
        messageService.start();
        console = ServiceProcess.start("console", Path.of("."), Map.of(
                "im.console.auth-service-url", auth.baseUrl(),
                "im.console.message-service-url", "http://127.0.0.1:" + messageService.getAddress().getPort(),
                "im.console.push-service-url", push.baseUrl(),
                "im.console.push-worker-url", worker.baseUrl()));
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--window-size=1280,900");
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build(), options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        // elements of a page still loading are waited for
        browser.manage().timeouts().implicitlyWait(Duration.ofSeconds(5));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        for (ServiceProcess process : new ServiceProcess[] {console, worker, push, auth}) {
            if (process != null) {
                process.kill();
            }
        }
        if (simulators != null) {
            simulators.close();
        }
        if (messageService != null) {
            messageService.stop(0);
        }
    }

    /**
     * message-service's {@code GET /group/info} and {@code GET /group/member_list} as GroupResource answers them:
     * {@code group_id} is a query parameter (a header is not read: {@code 10002 group_id: required}), the caller is
     * the app admin's {@code app_id} and {@code access-token}.
     */
    private static void groupStandIn(HttpExchange exchange) throws IOException {
        Map<String, String> query = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    query.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        String groupId = query.get("group_id");
        String path = exchange.getRequestURI().getPath();
        String body;
        if (exchange.getRequestHeaders().getFirst("access-token") == null) {
            body = "{\"code\":10010,\"message\":\"access-token: required\",\"data\":null}";
        } else if (groupId == null || groupId.isBlank()) {
            body = "{\"code\":10002,\"message\":\"group_id: required\",\"data\":null}";
        } else if (path.equals("/group/info")) {
            body = "{\"code\":200,\"message\":\"ok\",\"data\":{\"group_id\":" + groupId
                    + ",\"name\":\"console-group-" + groupId + "\",\"owner_id\":10001}}";
        } else if (path.equals("/group/member_list")) {
            body = "{\"code\":200,\"message\":\"ok\",\"data\":[{\"user_id\":10001,\"role\":\"owner\","
                    + "\"joined_at\":1700000000000},{\"user_id\":10002,\"role\":\"member\",\"joined_at\":1700000001000}]}";
        } else {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    /** Each test starts signed out, whatever the one before it left (a failed test does not reach its sign-out). */
    @BeforeEach
    void signedOut() {
        open("/sign-in"); // cookies are deleted for the page's origin
        browser.manage().deleteAllCookies();
    }

    @Test
    void anAppAdminPushesToADeviceAndWatchesItsReport() throws Exception {
        JsonNode app = api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"console\"}");
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
        assertEquals(1, simulators.get("vendor_b").recorder().deliveriesTo(testToken));
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
        long userId = api("POST", auth, "/user/register/v2", Map.of("app_id", appId),
                "{\"username\":\"console_user\",\"password\":\"console-pass-1\"}").get("user_id").asLong();
        JsonNode login = api("POST", auth, "/token/user", Map.of("app_id", appId),
                "{\"name\":\"console_user\",\"password\":\"console-pass-1\",\"device_guid\":\"console-phone\"}");
        api("POST", push, "/user/token/bind", Map.of("app_id", appId, "access-token", login.get("token").asText()),
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
        simulators.get("vendor_b").setLatencyMillis(3_000);
        submit("compose-submit");
        String url = path();
        assertTrue(url.matches("/console/tasks/\\d+"), url);
        long taskId = Long.parseLong(url.substring(url.lastIndexOf('/') + 1));

        // the report refreshes itself (htmx) until the task is final
        assertFalse(List.of("done", "expired", "failed").contains(text("task-state")), text("task-state"));
        assertEquals("every 2s", browser.findElement(By.id("report")).getAttribute("hx-trigger"));
        new WebDriverWait(browser, Duration.ofSeconds(60)).until(d -> "done".equals(text("task-state")));
        assertEquals(null, browser.findElement(By.id("report")).getAttribute("hx-trigger"), "a final report stops");
        simulators.get("vendor_b").setLatencyMillis(0);
        JsonNode detail = api("POST", push, "/push/task/detail",
                Map.of("app_id", appId, "access-token", adminToken), "{\"list\":[" + taskId + "]}").get(0);
        for (String counter : List.of("target", "sent", "received")) {
            assertEquals(detail.get("vendor_b_" + counter).asText(), text("vendor_b-" + counter), counter);
        }
        assertEquals("1", text("vendor_b-sent"));
        assertTrue(simulators.get("vendor_b").recorder().deliveriesTo(deviceToken) >= 1,
                "the Xiaomi simulator received the push");
        screenshot("report");

        // the task list shows the task with its totals over all channels
        open("/tasks");
        List<String> taskRow = cells(By.id("task-" + taskId));
        assertEquals("done", taskRow.get(2), taskRow.toString());
        assertEquals(List.of("1", "1"), taskRow.subList(4, 6), "target and sent: " + taskRow);
        screenshot("tasks");

        // trends: today's vendor_b row in the table, and the uPlot chart drawn from the bundled web jar
        open("/trends");
        List<String> today = cells(By.xpath("//table[@id='trend-table']/tbody/tr[td[2]='vendor_b']"));
        assertEquals(LocalDate.now(ZoneOffset.UTC).toString(), today.get(0), today.toString());
        assertEquals("1", today.get(3), "sent: " + today);
        assertFalse(browser.findElements(By.cssSelector("#trend-chart canvas")).isEmpty(), "the chart is drawn");
        screenshot("trends");

        // users: the user's device (auth-service, the admin acting as the user); disable and enable (PUT, CSRF)
        open("/users?user_id=" + userId);
        assertTrue(text("devices").contains("console-phone"), text("devices"));
        screenshot("users");
        submit("user-disable");
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
        JsonNode existing = api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY),
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
        List<String> vendorB = cells(By.xpath("//table[@id='lag']/tbody/tr[td[1]='vendor_b']"));
        assertEquals(List.of("vendor_b", "push.vendor_b", "push-worker.vendor_b"), vendorB.subList(0, 3));
        assertTrue(vendorB.get(4).matches("\\d+"), "lag: " + vendorB);
        assertEquals(8, browser.findElements(By.cssSelector("#lag tbody tr")).size(), "a row per channel");
        screenshot("system");
        submit("sign-out");
    }

    @Test
    void anAppAdminTracesAMessagesOfflinePushAndReadsItsDailyCounts() throws Exception {
        JsonNode app = api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"trace\"}");
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

        signInAsAdmin(appId, app.get("admin_token").asText());
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
        JsonNode app = api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"groups\"}");
        signInAsAdmin(app.get("app_id").asText(), app.get("admin_token").asText());
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
        JsonNode app = api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY), "{\"name\":\"days\"}");
        signInAsAdmin(app.get("app_id").asText(), app.get("admin_token").asText());
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

    private static void signInAsAdmin(String appId, String adminToken) {
        open("/sign-in");
        type("app_id", appId);
        type("admin_token", adminToken);
        submit("admin-submit");
        assertEquals("/console/", path());
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
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .header("app_id", appId).header("access-token", adminToken).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> map = new HashMap<>(base);
        map.put(key, value);
        return map;
    }

    private static void open(String path) {
        browser.get(console.baseUrl() + "/console" + path);
    }

    /**
     * Clicks a button that sends a form and waits for the next page to replace this one. A click that fails because
     * the page's DOM changed between finding the button and clicking it reads the page and clicks again.
     */
    private static void submit(String buttonId) {
        for (int attempt = 1; ; attempt++) {
            WebElement page = browser.findElement(By.tagName("html"));
            try {
                browser.findElement(By.id(buttonId)).click();
            } catch (WebDriverException detached) {
                if (attempt < 3 && isDetachedNode(detached)) {
                    continue;
                }
                throw detached;
            }
            new WebDriverWait(browser, Duration.ofSeconds(20)).until(driver -> leftTheDocument(page));
            return;
        }
    }

    /** Whether the element's node was replaced: a stale element, or chromedriver's detached-node error. */
    private static boolean leftTheDocument(WebElement element) {
        try {
            element.isEnabled();
            return false;
        } catch (StaleElementReferenceException replaced) {
            return true;
        } catch (WebDriverException e) {
            if (isDetachedNode(e)) {
                return true;
            }
            throw e;
        }
    }

    /**
     * chromedriver's error when an element's node left the document between finding it and using it, besides the
     * stale-element error (seen in CI on a click and on the wait for the next page).
     */
    private static boolean isDetachedNode(WebDriverException e) {
        return String.valueOf(e.getMessage()).contains("does not belong to the document");
    }

    private static List<String> cells(By row) {
        return browser.findElement(row).findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
    }

    private static String path() {
        return URI.create(browser.getCurrentUrl()).getPath();
    }

    private static void type(String id, String value) {
        WebElement field = browser.findElement(By.id(id));
        field.clear();
        field.sendKeys(value);
    }

    /** The element's text, read again if htmx replaced the element between finding and reading it. */
    private static String text(String id) {
        for (int attempt = 1; ; attempt++) {
            List<WebElement> found = browser.findElements(By.id(id));
            try {
                return found.isEmpty() ? "" : found.get(0).getText().strip();
            } catch (StaleElementReferenceException replaced) {
                if (attempt == 3) {
                    throw replaced;
                }
            }
        }
    }

    private static void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** A service API call that must succeed; returns its data. */
    private static JsonNode api(String method, ServiceProcess service, String path, Map<String, String> headers,
            String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        headers.forEach(request::header);
        JsonNode answer = JSON.readTree(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body());
        assertEquals(200, answer.path("code").asInt(), path + ": " + answer);
        return answer.get("data");
    }
}

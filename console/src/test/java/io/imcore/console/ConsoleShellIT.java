package io.imcore.console;

import static io.imcore.console.ConsoleBrowser.open;
import static io.imcore.console.ConsoleBrowser.path;
import static io.imcore.console.ConsoleBrowser.policyViolations;
import static io.imcore.console.ConsoleBrowser.resize;
import static io.imcore.console.ConsoleBrowser.screenshot;
import static io.imcore.console.ConsoleBrowser.signInAsAdmin;
import static io.imcore.console.ConsoleBrowser.signInAsOperator;
import static io.imcore.console.ConsoleBrowser.submit;
import static io.imcore.console.ConsoleBrowser.text;
import static io.imcore.console.ConsoleBrowser.type;
import static io.imcore.console.ConsoleStack.PLATFORM_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.console.page.SessionGuard;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What every page shares (issue 35): the security headers and the Content-Security-Policy, the layout at 390 px, the
 * navigation's current page; and the shell's bugs: the overview's push switch, the admin token's rotation (confirmed
 * first, the new token wrapped and copyable), an app without a name, and the certificates' expiry.
 */
class ConsoleShellIT extends ConsoleBrowsing {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final String FORM_COOKIE = "console_sign_in";

    @BeforeEach
    @Override
    void signedOut() {
        super.signedOut();
        policyViolations(); // what earlier tests left in the log
    }

    @Test
    void everyPageFitsA390PixelScreenWithoutPolicyViolations() throws Exception {
        ConsoleStack.Pushed pushed = stack.pushToADevice("phone", "Shell", "A push for the layout");
        try {
            resize(ConsoleBrowser.PHONE);
            open("/sign-in");
            assertEquals(390L, js("return window.innerWidth"), "the viewport is the phone's");
            assertFits("sign-in");
            screenshot("phone-sign-in");
            signInAsAdmin(pushed.app());
            Map<String, String> pages = new LinkedHashMap<>();
            pages.put("overview", "/");
            pages.put("certificates", "/certificates");
            pages.put("composer", "/push/new");
            pages.put("scheduled", "/scheduled");
            pages.put("tasks", "/tasks");
            pages.put("report", "/tasks/" + pushed.taskId());
            pages.put("trends", "/trends");
            pages.put("users", "/users?user_id=" + pushed.userId());
            pages.put("messages", "/messages?msg_id=1");
            pages.put("webhooks", "/webhooks");
            for (Map.Entry<String, String> page : pages.entrySet()) {
                open(page.getValue());
                assertFits(page.getKey());
                screenshot("phone-" + page.getKey());
            }
            open("/trends");
            assertFalse(browser.findElements(By.cssSelector("#trend-chart canvas")).isEmpty(),
                    "the chart is drawn under the policy");
            signOutHere();
            signInAsOperator();
            for (String page : List.of("apps", "system")) {
                open("/" + page);
                assertFits(page);
                screenshot("phone-" + page);
            }
        } finally {
            resize(ConsoleBrowser.DESKTOP);
        }
    }

    @Test
    void theNavigationMarksTheCurrentPage() throws Exception {
        ConsoleStack.Pushed pushed = stack.pushToADevice("navigation", "Shell", "A push for the layout");
        signInAsAdmin(pushed.app());
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("/", "Overview");
        pages.put("/certificates", "Certificates");
        pages.put("/push/new", "Compose push");
        pages.put("/scheduled", "Scheduled");
        pages.put("/tasks", "Tasks");
        pages.put("/tasks/" + pushed.taskId(), "Tasks");
        pages.put("/trends", "Trends");
        pages.put("/messages", "Message trace");
        pages.put("/users", "Users and groups");
        pages.put("/webhooks", "Webhooks");
        pages.forEach((page, entry) -> {
            open(page);
            assertCurrent(page, entry);
        });
        signOutHere();
        signInAsOperator();
        for (String entry : List.of("Apps", "System")) {
            open("/" + entry.toLowerCase());
            assertCurrent(entry, entry);
        }
    }

    @Test
    void theOverviewOffersOnlyTheSwitchThatApplies() throws Exception {
        signInAsAdmin(stack.newApp("switch"));
        assertEquals("off", text("push-state"));
        assertEquals(1, browser.findElements(By.id("push-on")).size(), "push is off: it can be switched on");
        assertTrue(browser.findElements(By.id("push-off")).isEmpty(), "push is off: no switch off");
        submit("push-on");
        assertEquals("on", text("push-state"));
        assertEquals(1, browser.findElements(By.id("push-off")).size(), "push is on: it can be switched off");
        assertTrue(browser.findElements(By.id("push-on")).isEmpty(), "push is on: no switch on");
        submit("push-off");
        assertEquals("off", text("push-state"));
    }

    @Test
    void rotatingAnAdminTokenIsConfirmedFirstAndTheNewTokenFitsAndCopies() throws Exception {
        ConsoleStack.App app = stack.newApp("rotate");
        signInAsOperator();
        submit("rotate-" + app.id());
        assertEquals("Rotate the admin token of app " + app.id() + "? The old one stops working.",
                browser.findElement(By.cssSelector("#rotate-confirmation p")).getText());
        assertTrue(browser.findElements(By.id("issued-token")).isEmpty(), "nothing rotated yet");
        assertEquals(1, tokenVersion(app.id()), "the first submit only asks");
        browser.findElement(By.id("rotate-cancel")).click();
        assertEquals("/console/apps", path());
        assertTrue(browser.findElements(By.id("rotate-confirmation")).isEmpty());
        assertEquals(1, tokenVersion(app.id()), "cancelled");

        submit("rotate-" + app.id());
        submit("rotate-confirm");
        assertEquals(2, tokenVersion(app.id()), "confirmed");
        WebElement token = browser.findElement(By.id("issued-token"));
        String newToken = token.getText().strip();
        assertFalse(newToken.isEmpty() || newToken.equals(app.adminToken()), newToken);
        // the token wraps inside its box instead of running past it
        assertTrue((Long) js("var t = document.getElementById('issued-token'); return t.scrollWidth - t.clientWidth")
                <= 0, "the token overflows its box");
        screenshot("apps-new-token");
        // the Copy button (copy.js) puts the token on the clipboard
        ((ChromeDriver) browser).executeCdpCommand("Browser.grantPermissions", Map.of("permissions",
                List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
        browser.findElement(By.id("copy-token")).click();
        new WebDriverWait(browser, Duration.ofSeconds(5)).until(d -> !text("copy-result").isEmpty());
        assertEquals("Copied.", text("copy-result"));
        Object clipboard = ((JavascriptExecutor) browser).executeAsyncScript(
                "var done = arguments[0]; navigator.clipboard.readText().then(done, function (e) { done('' + e); });");
        assertEquals(newToken, clipboard);
        assertEquals(List.of(), policyViolations());
        open("/apps");
        assertFalse(browser.getPageSource().contains(newToken), "the token is shown once only");
    }

    @Test
    void anAppWithoutANameIsRefusedBesideTheField() throws Exception {
        signInAsOperator();
        int apps = browser.findElements(By.cssSelector("#apps tbody tr")).size();
        for (String name : List.of("", "   ")) {
            type("app_name", name);
            submit("create-app-submit");
            assertEquals("name: required, the name this list shows for the app", text("error-name"), "'" + name + "'");
            assertTrue(browser.findElements(By.id("issued")).isEmpty(), "no app made");
            assertEquals(apps, browser.findElements(By.cssSelector("#apps tbody tr")).size(), "no app listed");
        }
        type("app_name", "named-" + UUID.randomUUID().toString().substring(0, 8));
        submit("create-app-submit");
        assertEquals("", text("error-name"));
        assertTrue(text("issued").contains("created"), text("issued"));
    }

    @Test
    void certificatesShowWhenTheyExpireWithAWarningFrom30DaysAhead() throws Exception {
        ConsoleStack.App app = stack.newApp("expiry");
        signInAsAdmin(app);
        uploadApnsCertificate("1", "apns-soon", 20, 0);
        uploadApnsCertificate("0", "apns-later", 400, 0);
        JsonNode soon = stack.api("GET", stack.push, "/push/certificate?provider=1&environment=1",
                Map.of("app_id", app.id(), "access-token", app.adminToken()), "");
        String soonDate = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochSecond(soon.get("expires_at").asLong()));
        String soonCell = text("expires-1-1");
        assertTrue(soonCell.matches(Pattern.quote(soonDate) + ": expires in (19|20) days"), soonCell);
        assertEquals("warning", browser.findElement(By.id("expires-1-1")).getAttribute("class"));
        String warnings = text("expiry-warnings");
        assertTrue(warnings.contains("apns-soon") && warnings.contains(soonDate), warnings);
        assertFalse(warnings.contains("apns-later"), "400 days away: " + warnings);
        assertTrue(text("expires-1-0").matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC"), text("expires-1-0"));
        assertEquals("", browser.findElement(By.id("expires-1-0")).getAttribute("class"));
        screenshot("certificates-expiry");

        // valid from 400 days ago for 30 days: expired
        uploadApnsCertificate("0", "apns-later", 30, 400);
        assertTrue(text("expires-1-0").endsWith(": expired"), text("expires-1-0"));
        assertTrue(text("expiry-warnings").contains("apns-later"), text("expiry-warnings"));
        // a credential that does not expire says so
        stack.api("POST", stack.push, "/push/certificate", Map.of("app_id", app.id(), "access-token",
                app.adminToken()), "{\"provider\":3,\"environment\":1,\"name\":\"mi-expiry\","
                        + "\"app_id\":\"com.example.expiry\",\"app_secret\":\"expiry-secret\"}");
        open("/certificates");
        assertEquals("does not expire", text("expires-3-1"));
    }

    @Test
    void theSignInPageKeepsNoSessionAndASignInNeedsItsOwnSignedFormToken() throws Exception {
        for (int i = 0; i < 1000; i++) {
            HttpResponse<String> page = get(null, "/sign-in");
            assertEquals(200, page.statusCode());
            assertTrue(cookieOf(page, FORM_COOKIE) != null, "each visit is given a signed form token");
            assertEquals(null, cookieOf(page, SessionGuard.COOKIE), "and no session");
        }
        HttpResponse<String> firstPage = get(null, "/sign-in");
        HttpResponse<String> secondPage = get(null, "/sign-in");
        String first = cookieOf(firstPage, FORM_COOKIE);
        String second = cookieOf(secondPage, FORM_COOKIE);
        assertEquals(first, csrf(firstPage.body()), "the form carries the cookie's token");
        String forged = first.substring(0, first.lastIndexOf('.') + 1) + "A".repeat(43);
        Map<String, String> operator = Map.of("kind", "operator", "platform_key", PLATFORM_KEY);
        Map<String, String[]> refused = new LinkedHashMap<>();
        refused.put("no cookie, no field", new String[] {null, null});
        refused.put("no cookie", new String[] {null, first});
        refused.put("no field", new String[] {first, null});
        refused.put("another form's field", new String[] {first, second});
        refused.put("a forged signature in both", new String[] {forged, forged});
        for (var attempt : refused.entrySet()) {
            HttpResponse<String> answer = signInPost(attempt.getValue()[0], attempt.getValue()[1], operator);
            assertEquals(403, answer.statusCode(), attempt.getKey());
            assertTrue(answer.body().contains("This sign-in form was refused"), attempt.getKey() + ": " + answer.body());
            assertEquals(null, cookieOf(answer, SessionGuard.COOKIE), attempt.getKey());
        }
        HttpResponse<String> signedIn = signInPost(second, second, operator);
        assertEquals(303, signedIn.statusCode(), signedIn.body());
        assertEquals("", cookieOf(signedIn, FORM_COOKIE), "the form token is cleared once used");
        assertEquals(200, get(cookieOf(signedIn, SessionGuard.COOKIE), "/apps").statusCode());
    }

    @Test
    void everyResponseCarriesTheSecurityHeaders() throws Exception {
        ConsoleStack.Pushed pushed = stack.pushToADevice("headers", "Shell", "A push for the layout");
        assertPageHeaders(get(null, "/sign-in"));
        assertPageHeaders(get(null, "/tasks")); // the redirect to sign-in
        String admin = signIn(Map.of("kind", "admin", "app_id", pushed.app().id(), "admin_token",
                pushed.app().adminToken()));
        for (String page : List.of("/", "/certificates", "/push/new", "/scheduled", "/tasks", "/tasks/" + pushed.taskId(),
                "/tasks/" + pushed.taskId() + "/report", "/trends", "/users?user_id=" + pushed.userId(),
                "/messages", "/webhooks", "/apps")) { // the last one is refused to an app admin (403)
            assertPageHeaders(get(admin, page));
        }
        String operator = signIn(Map.of("kind", "operator", "platform_key", PLATFORM_KEY));
        assertPageHeaders(get(operator, "/apps"));
        assertPageHeaders(get(operator, "/system"));
        // the page that shows a new admin token
        String csrf = csrf(get(operator, "/apps").body());
        HttpResponse<String> rotated = post(operator, "/apps/admin-token", Map.of("csrf", csrf, "app_id",
                stack.newApp("headers-rotated").id(), "confirm", "yes"));
        assertTrue(rotated.body().contains("id=\"issued-token\""), rotated.body());
        assertPageHeaders(rotated);
        // static files: the same policy and nosniff; they keep their own caching
        for (String file : List.of("/console.css", "/charts.js", "/copy.js",
                "/_static/htmx.org/2.0.2/dist/htmx.min.js")) {
            HttpResponse<String> response = get(null, file);
            assertEquals(200, response.statusCode(), file);
            assertSecurityHeaders(response);
            assertNotEquals("no-store", response.headers().firstValue("Cache-Control").orElse(""), file);
        }
    }


    /** The page is no wider than the phone, Sign out is on the screen, and the policy blocked nothing. */
    private static void assertFits(String page) {
        long width = (Long) js("return document.documentElement.scrollWidth");
        assertTrue(width <= 390, page + " is " + width + " px wide");
        List<WebElement> signOut = browser.findElements(By.id("sign-out"));
        if (!signOut.isEmpty()) {
            Number right = (Number) js("return document.getElementById('sign-out').getBoundingClientRect().right");
            assertTrue(right.doubleValue() <= 390, page + ": Sign out ends at " + right);
        }
        assertEquals(List.of(), policyViolations(), page);
    }

    private static void assertCurrent(String page, String entry) {
        List<WebElement> current = browser.findElements(By.cssSelector("header nav a[aria-current='page']"));
        assertEquals(List.of(entry), current.stream().map(WebElement::getText).toList(), page);
        WebElement other = browser.findElement(By.cssSelector("header nav a:not([aria-current])"));
        assertNotEquals(other.getCssValue("background-color"), current.get(0).getCssValue("background-color"),
                page + ": the current entry looks like the others");
    }

    private static void signOutHere() {
        submit("sign-out");
        assertEquals("/console/sign-in", path());
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    /** The admin token version of an app, as the operator's app list gives it. */
    private static int tokenVersion(String appId) throws Exception {
        for (JsonNode app : stack.api("GET", stack.auth, "/app/list", Map.of("platform-key", PLATFORM_KEY), "")
                .get("list")) {
            if (app.get("app_id").asText().equals(appId)) {
                return app.get("admin_token_version").asInt();
            }
        }
        throw new AssertionError("app " + appId + " not listed");
    }

    /**
     * Uploads an APNs PKCS#12 certificate (certificate auth) through the page, valid from {@code startDaysAgo} days
     * ago for {@code validityDays} days.
     */
    private static void uploadApnsCertificate(String environment, String name, int validityDays, int startDaysAgo)
            throws Exception {
        String password = "p12-pass";
        String p12 = apnsPkcs12(password, validityDays, startDaysAgo);
        open("/certificates");
        new Select(browser.findElement(By.id("provider"))).selectByValue("1");
        new Select(browser.findElement(By.id("environment"))).selectByValue(environment);
        type("name", name);
        type("cert_app_id", "ABCDE12345.com.example.chat");
        type("app_secret", password);
        // 3 KB of base64: set at once rather than typed key by key
        ((JavascriptExecutor) browser).executeScript("document.getElementById('certificate').value = arguments[0]",
                p12);
        submit("upload-submit");
        assertEquals("Certificate " + name + " saved.", text("upload-result"));
    }

    /** An APNs-like client certificate with its key, made by keytool as push-service's CertificateTest does. */
    private static String apnsPkcs12(String password, int validityDays, int startDaysAgo) throws Exception {
        Path dir = Files.createTempDirectory("apns");
        Path file = dir.resolve("apns.p12");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
                .toString(), "-genkeypair", "-alias", "apns", "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", Integer.toString(validityDays),
                "-dname", "CN=Apple Push Services: com.example.chat, UID=com.example.chat",
                "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", password, "-keypass", password));
        if (startDaysAgo > 0) {
            command.addAll(List.of("-startdate", "-" + startDaysAgo + "d"));
        }
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keytool.waitFor() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        String base64 = Base64.getEncoder().encodeToString(Files.readAllBytes(file));
        Files.delete(file);
        Files.delete(dir);
        return base64;
    }

    private static void assertPageHeaders(HttpResponse<String> response) {
        assertSecurityHeaders(response);
        assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(null),
                response.uri().toString());
    }

    private static void assertSecurityHeaders(HttpResponse<String> response) {
        String page = response.uri().toString();
        String policy = response.headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(policy.contains("script-src 'self';") && !policy.contains("unsafe-inline")
                && !policy.contains("unsafe-eval"), page + ": " + policy);
        assertTrue(policy.contains("frame-ancestors 'none'"), page + ": " + policy);
        assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElse(null), page);
        assertEquals("same-origin", response.headers().firstValue("Referrer-Policy").orElse(null), page);
    }

    private static HttpResponse<String> get(String session, String path) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(consoleUrl() + path));
        if (session != null) {
            request.header("Cookie", SessionGuard.COOKIE + "=" + session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String session, String path, Map<String, String> form)
            throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder();
        form.forEach((key, value) -> body.append(body.isEmpty() ? "" : "&").append(key).append('=')
                .append(java.net.URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return HTTP.send(HttpRequest.newBuilder(URI.create(consoleUrl() + path))
                .header("Cookie", SessionGuard.COOKIE + "=" + session)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Signs in through the form with the sign-in page's form token (cookie and field); the new session's id. */
    private static String signIn(Map<String, String> fields) throws Exception {
        HttpResponse<String> page = get(null, "/sign-in");
        HttpResponse<String> answer = signInPost(cookieOf(page, FORM_COOKIE), csrf(page.body()), fields);
        assertEquals(303, answer.statusCode(), answer.body());
        String session = cookieOf(answer, SessionGuard.COOKIE);
        assertTrue(session != null, "no session cookie: " + answer.headers());
        return session;
    }

    private static HttpResponse<String> signInPost(String formCookie, String csrf, Map<String, String> fields)
            throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder();
        Map<String, String> form = new LinkedHashMap<>(fields);
        if (csrf != null) {
            form.put("csrf", csrf);
        }
        form.forEach((key, value) -> body.append(body.isEmpty() ? "" : "&").append(key).append('=')
                .append(java.net.URLEncoder.encode(value, StandardCharsets.UTF_8)));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(consoleUrl() + "/sign-in"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (formCookie != null) {
            request.header("Cookie", FORM_COOKIE + "=" + formCookie);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The value a response sets for that cookie, or null when it sets none. */
    private static String cookieOf(HttpResponse<String> response, String name) {
        for (String cookie : response.headers().allValues("Set-Cookie")) {
            if (cookie.startsWith(name + "=")) {
                int end = cookie.indexOf(';');
                return cookie.substring(name.length() + 1, end < 0 ? cookie.length() : end);
            }
        }
        return null;
    }

    private static String csrf(String html) {
        Matcher matcher = CSRF.matcher(html);
        assertTrue(matcher.find(), html);
        return matcher.group(1);
    }

    private static String consoleUrl() {
        return stack.console.baseUrl() + "/console";
    }
}

package io.imcore.console;

import static io.imcore.console.ConsoleBrowser.open;
import static io.imcore.console.ConsoleBrowser.path;
import static io.imcore.console.ConsoleBrowser.resize;
import static io.imcore.console.ConsoleBrowser.screenshot;
import static io.imcore.console.ConsoleBrowser.signInAsAdmin;
import static io.imcore.console.ConsoleBrowser.signInAsOperator;
import static io.imcore.console.ConsoleBrowser.submit;
import static io.imcore.console.ConsoleBrowser.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.console.page.SessionGuard;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

/**
 * The console in Simplified Chinese (issue 35, "Languages"): the header's switch, Accept-Language, the way back to
 * English, the 390 px layout in Chinese, and Chinese text drawn with a CJK font rather than as boxes. Each test
 * starts in English: signing out deletes the language cookie too.
 */
class ConsoleLanguageIT extends ConsoleBrowsing {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /**
     * Whether the text "中文" is drawn with real glyphs in the body's font: a character no font has (U+E000, private
     * use) is drawn as the missing-glyph box; without a CJK font "中" is drawn as that same box.
     */
    private static final String DRAWS_CHINESE = """
            var font = '32px ' + getComputedStyle(document.body).fontFamily;
            function pixels(text) {
              var canvas = document.createElement('canvas');
              canvas.width = 48; canvas.height = 48;
              var context = canvas.getContext('2d');
              context.font = font;
              context.fillText(text, 4, 36);
              return Array.from(context.getImageData(0, 0, 48, 48).data).join(',');
            }
            return pixels('\\u4e2d') !== pixels('\\ue000') && pixels('\\u4e2d') !== pixels('\\u6587');
            """;
    @Test
    void everyPageInChineseThroughTheSwitchThenBackToEnglish() throws Exception {
        ConsoleStack.Pushed pushed = stack.pushToADevice("lang", "双十一 促销", "全场五折，今晚八点开始");
        open("/sign-in");
        assertEquals("en", lang());
        assertEquals("Sign in", heading());
        switchTo("zh-CN");
        assertEquals("/console/sign-in", path(), "the switch returns to the page");
        assertEquals("zh-CN", lang());
        assertEquals("登录", heading());
        assertTrue((Boolean) js(DRAWS_CHINESE), "Chinese is drawn with a CJK font, not as boxes");
        assertTrue(String.valueOf(js("return getComputedStyle(document.body).fontFamily"))
                .contains("Noto Sans CJK SC"), "the stylesheet names the CJK font");
        signInAsAdmin(pushed.app());

        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("/", "应用 " + pushed.app().id());
        pages.put("/certificates", "推送证书");
        pages.put("/push/new", "创建推送");
        pages.put("/tasks", "推送任务");
        pages.put("/scheduled", "定时推送");
        pages.put("/tasks/" + pushed.taskId(), "任务 " + pushed.taskId());
        pages.put("/trends", "趋势：最近 30 天（UTC）");
        pages.put("/messages?msg_id=1", "消息追踪");
        pages.put("/users?user_id=" + pushed.userId(), "用户和群组");
        pages.put("/webhooks", "Webhook");
        for (Map.Entry<String, String> page : pages.entrySet()) {
            open(page.getKey());
            assertEquals("zh-CN", lang(), page.getKey());
            assertEquals(page.getValue(), heading(), page.getKey());
        }
        // texts the page classes write, and the navigation
        open("/");
        assertEquals("开", text("push-state"));
        assertEquals("概览", browser.findElement(By.cssSelector("header nav a[aria-current='page']")).getText());
        open("/messages?msg_id=abc");
        assertEquals("msg_id 必须是数字，而不是“abc”。", text("trace-error"));
        open("/tasks/" + pushed.taskId());
        assertEquals("应用管理员令牌，通过 API（管理员令牌版本 1）", text("sent-by"));
        assertEquals("双十一 促销", text("sent-title"), "the push's own text as it was sent");
        assertEquals(List.of("时间", "vendor_b 已发送", "vendor_b 已送达"), browser.findElements(
                By.cssSelector("#delivery-chart .u-legend .u-series .u-label")).stream().map(WebElement::getText)
                .toList(), "the chart's legend");
        screenshot("lang-zh-report-desktop");

        resize(ConsoleBrowser.PHONE);
        try {
            for (String page : pages.keySet()) {
                open(page);
                assertFits(page);
            }
            open("/");
            screenshot("lang-zh-overview-phone");
        } finally {
            resize(ConsoleBrowser.DESKTOP);
        }

        open("/trends?days=7");
        switchTo("en");
        assertEquals("/console/trends", path(), "back to the same page");
        assertEquals("en", lang());
        assertEquals("Trends: the last 7 days (UTC)", heading(), "with its query");
        open("/tasks/" + pushed.taskId());
        assertEquals("Task " + pushed.taskId(), heading());
        screenshot("lang-en-report-desktop");
        resize(ConsoleBrowser.PHONE);
        try {
            open("/");
            screenshot("lang-en-overview-phone");
        } finally {
            resize(ConsoleBrowser.DESKTOP);
        }
    }

    @Test
    void operatorPagesInChinese() throws Exception {
        open("/sign-in");
        switchTo("zh-CN");
        signInAsOperator();
        assertEquals("应用", heading());
        assertEquals("运营者", browser.findElement(By.cssSelector("header .who")).getText());
        open("/system");
        assertEquals("系统", heading());
        assertEquals("健康状态", browser.findElement(By.cssSelector("main h2")).getText());
        resize(ConsoleBrowser.PHONE);
        try {
            for (String page : List.of("/apps", "/system")) {
                open(page);
                assertFits(page);
            }
        } finally {
            resize(ConsoleBrowser.DESKTOP);
        }
        submit("sign-out");
        assertEquals("登录", heading(), "the language outlives the session");
    }

    @Test
    void acceptLanguageChoosesUntilTheSwitchDoes() throws Exception {
        ConsoleStack.App app = stack.newApp("lang-header");
        signInAsAdmin(app);
        String session = SessionGuard.COOKIE + "=" + browser.manage().getCookieNamed(SessionGuard.COOKIE).getValue();
        for (String chinese : List.of("zh-CN", "zh", "zh-Hans", "zh-Hans-CN", "fr, zh-CN;q=0.8", "zh-cn,en;q=0.9")) {
            String page = get("/", chinese, session).body();
            assertTrue(page.contains("<html lang=\"zh-CN\">") && page.contains("<h1>应用 " + app.id() + "</h1>"),
                    chinese);
        }
        for (String english : List.of("", "en", "en-US,zh-CN;q=0.5", "zh-TW", "fr", "de, *;q=0.1",
                "not a header")) {
            String page = get("/", english, session).body();
            assertTrue(page.contains("<html lang=\"en\">") && page.contains("<h1>App " + app.id() + "</h1>"),
                    english);
        }
        String switchedBack = get("/", "zh-CN", session + "; console_lang=en").body();
        assertTrue(switchedBack.contains("<h1>App " + app.id() + "</h1>"), "the switch's cookie wins");

        HttpResponse<String> chosen = get("/language?lang=zh-CN&back=%2Fconsole%2Ftasks%3Fstate%3Ddone", "", "");
        assertEquals(303, chosen.statusCode());
        assertEquals("/console/tasks?state=done", chosen.headers().firstValue("Location").orElseThrow());
        String cookie = chosen.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.startsWith("console_lang=zh-CN;") && cookie.contains("Path=/console")
                && cookie.contains("SameSite=Strict"), cookie);
        for (String elsewhere : List.of("https://evil.example/console/", "//evil.example/console", "/consolex",
                "/console\\..\\evil", "javascript:alert(1)")) {
            String back = URLEncoder.encode(elsewhere, StandardCharsets.UTF_8);
            assertEquals("/console/", get("/language?lang=en&back=" + back, "", "").headers().firstValue("Location")
                    .orElseThrow(), "never back to " + elsewhere);
        }
        assertTrue(get("/language?lang=xx&back=%2Fconsole%2F", "", "").headers().firstValue("Set-Cookie").isEmpty(),
                "no cookie for a language the console does not have");
    }

    private static HttpResponse<String> get(String path, String acceptLanguage, String cookies) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.console.baseUrl() + "/console" + path));
        if (!acceptLanguage.isEmpty()) {
            request.header("Accept-Language", acceptLanguage);
        }
        if (!cookies.isEmpty()) {
            request.header("Cookie", cookies);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Clicks the header's link of that language and waits for the page it returns to. */
    private static void switchTo(String tag) {
        submit("lang-" + tag);
    }

    private static String lang() {
        return browser.findElement(By.tagName("html")).getAttribute("lang");
    }

    private static String heading() {
        return browser.findElement(By.cssSelector("main h1")).getText();
    }

    /** No wider than the phone, Sign out on the screen. */
    private static void assertFits(String page) {
        long width = (Long) js("return document.documentElement.scrollWidth");
        assertTrue(width <= 390, page + " is " + width + " px wide");
        Number right = (Number) js("return document.getElementById('sign-out').getBoundingClientRect().right");
        assertTrue(right.doubleValue() <= 390, page + ": 退出登录 ends at " + right);
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

}

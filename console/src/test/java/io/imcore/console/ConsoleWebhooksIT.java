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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

/**
 * The Webhooks page in a real browser ({@link ConsoleBrowser}) against the stand-in of message-service's webhook API
 * ({@link WebhookStandIn}): settings saved and the new secret shown once, a private URL refused beside its field, the
 * delivery log paged with "send again", the word list saved with Chinese words, and the disabled endpoint's banner
 * on the overview and the page until the settings are saved again.
 */
class ConsoleWebhooksIT extends ConsoleBrowsing {

    @Test
    void settingsAreSavedAndTheNewSecretIsShownOnce() throws Exception {
        ConsoleStack.App app = stack.newApp("webhook-settings");
        signInAsAdmin(app);
        browser.findElement(By.linkText("Webhooks")).click();
        assertEquals("/console/webhooks", path());
        assertEquals("No webhook is set for this app: save one below.", text("settings-none"));

        type("url", "http://127.0.0.1:9000/hook");
        submit("save-webhook");
        assertEquals("10002: url: the host is not a public address", text("error-url"));
        assertEquals("http://127.0.0.1:9000/hook", browser.findElement(By.id("url")).getDomProperty("value"));
        assertTrue(browser.findElements(By.id("issued-secret")).isEmpty());
        assertNull(stack.webhooks.app(app.id()).webhook, "nothing saved");
        screenshot("webhooks-refused-url");

        type("url", "https://hooks.example.com/imcore");
        type("events", "message.created, group.created");
        browser.findElement(By.id("before_send")).click();
        type("hook_timeout_ms", "800");
        browser.findElement(By.id("hook_fail_open")).click();
        submit("save-webhook");
        String secret = stack.webhooks.app(app.id()).secret;
        assertEquals(secret, text("issued-secret"));
        assertEquals("whsec_****" + secret.substring(secret.length() - 4), text("masked-secret"));
        JsonNode saved = stack.webhooks.app(app.id()).webhook;
        assertEquals("https://hooks.example.com/imcore", saved.path("url").asText());
        assertEquals(List.of("message.created", "group.created"), texts(saved.path("events")));
        assertTrue(saved.path("before_send").asBoolean());
        assertEquals(800, saved.path("hook_timeout_ms").asInt());
        assertFalse(saved.path("hook_fail_open").asBoolean());
        assertEquals(1, saved.path("batch_size").asInt(), "the batch size kept, not reset");
        screenshot("webhooks-secret");

        open("/webhooks");
        assertTrue(browser.findElements(By.id("issued-secret")).isEmpty());
        assertFalse(browser.getPageSource().contains(secret), "the secret is shown once only");
        assertEquals("message.created, group.created", browser.findElement(By.id("events")).getDomProperty("value"));
        assertTrue(browser.findElement(By.id("before_send")).isSelected());
        assertFalse(browser.findElement(By.id("hook_fail_open")).isSelected());
    }

    @Test
    void theDeliveryLogIsPagedAndADeliveryIsSentAgain() throws Exception {
        ConsoleStack.App app = stack.newApp("webhook-log");
        stack.webhooks.addDeliveries(app.id(), 25);
        signInAsAdmin(app);
        open("/webhooks");
        List<WebElement> rows = browser.findElements(By.xpath("//table[@id='deliveries']/tbody/tr"));
        assertEquals(20, rows.size());
        assertEquals(List.of("2026-12-06 07:00:25 UTC", "message.created", "delivered", "200", "35 ms", "1", "ok 25",
                "Send again"), cells(By.id("delivery-25")));
        assertEquals(List.of("2026-12-06 07:00:24 UTC", "message.created", "pending", "500", "34 ms", "3",
                "upstream failed 24", "Send again"), cells(By.id("delivery-24")));
        scrollTo("delivery-log");
        screenshot("webhooks-log");

        browser.findElement(By.id("log-older")).click();
        assertEquals(List.of("5", "4", "3", "2", "1"), browser.findElements(
                By.xpath("//table[@id='deliveries']/tbody/tr")).stream()
                .map(row -> row.getAttribute("id").substring("delivery-".length())).toList());
        assertTrue(browser.findElements(By.id("log-older")).isEmpty());
        browser.findElement(By.id("log-newest")).click();

        submit("resend-24");
        assertEquals("Delivery 24 queued again: it is sent now, with the same event id.", text("notice"));
        assertEquals(List.of(24L), stack.webhooks.app(app.id()).resent);
    }

    @Test
    void theWordListIsSavedWithChineseWords() throws Exception {
        ConsoleStack.App app = stack.newApp("webhook-words");
        signInAsAdmin(app);
        open("/webhooks");
        assertEquals("No word list: this app's messages are not filtered.", text("words-none"));
        List<String> words = new ArrayList<>(IntStream.range(0, 3000).mapToObj(i -> "违禁词" + i).toList());
        // thousands of lines are put in at once (typing them would take minutes); the last one is typed
        ((JavascriptExecutor) browser).executeScript("document.getElementById('words').value = arguments[0];",
                String.join("\n", words) + "\n");
        browser.findElement(By.id("words")).sendKeys("敏感词");
        words.add("敏感词");
        browser.findElement(By.id("action-mask")).click();
        submit("save-words");

        assertEquals("Word list saved: 3001 words.", text("notice"));
        JsonNode saved = stack.webhooks.app(app.id()).wordFilter;
        assertEquals("mask", saved.path("action").asText());
        assertEquals(words, texts(saved.path("words")));
        assertEquals("The word list holds 3001 words.", text("words-count"));
        assertEquals(String.join("\n", words), browser.findElement(By.id("words")).getDomProperty("value"));
        assertTrue(browser.findElement(By.id("action-mask")).isSelected());
        scrollTo("word-filter");
        screenshot("webhooks-words");
    }

    @Test
    void aDisabledEndpointHasABannerUntilItIsSavedAgain() throws Exception {
        ConsoleStack.App app = stack.newApp("webhook-disabled");
        signInAsAdmin(app);
        assertTrue(browser.findElements(By.id("webhook-disabled")).isEmpty(), "no banner without a webhook");
        open("/webhooks");
        type("url", "https://hooks.example.com/down");
        submit("save-webhook");
        stack.webhooks.disable(app.id(), "HTTP 503 for 24 h: Service Unavailable");

        open("/");
        assertEquals("The webhook endpoint of this app is disabled since 2026-12-05 06:00:00 UTC: its events wait. "
                + "Open Webhooks", text("webhook-disabled"));
        browser.findElement(By.linkText("Open Webhooks")).click();
        assertTrue(text("webhook-disabled").startsWith("Deliveries to this endpoint stopped at 2026-12-05 06:00:00 "
                + "UTC: HTTP 503 for 24 h: Service Unavailable\nIts events wait. Saving the settings again"),
                text("webhook-disabled"));
        screenshot("webhooks-disabled");
        browser.findElement(By.id("lang-zh-CN")).click();
        try {
            assertEquals("Webhook", browser.findElement(By.tagName("h1")).getText());
            assertTrue(text("webhook-disabled").startsWith("向此端点的投递已于 2026-12-05 06:00:00 UTC 停止"),
                    text("webhook-disabled"));
            assertEquals("保存（签发新密钥）", text("save-webhook"));
        } finally {
            browser.findElement(By.id("lang-en")).click();
        }

        submit("save-webhook");
        assertFalse(stack.webhooks.app(app.id()).webhook.path("disabled").asBoolean());
        assertTrue(browser.findElements(By.id("webhook-disabled")).isEmpty(), "the page's banner gone");
        open("/");
        assertEquals("/console/", path());
        assertTrue(browser.findElements(By.id("webhook-disabled")).isEmpty(), "the overview's banner gone");
    }

    private static void scrollTo(String id) {
        ((JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView();", browser.findElement(By.id(id)));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }
}

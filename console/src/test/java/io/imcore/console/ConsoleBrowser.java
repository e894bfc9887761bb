package io.imcore.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One real headless Chromium per test JVM (Debian's chromium and chromedriver, installed by
 * deploy/local/install-browser.sh when missing) on the console of {@link ConsoleStack}, and the steps the browser
 * tests take with it. Screenshots go to target/console-screenshots/, or to docs/console/ with
 * {@code -Dconsole.screenshots=update} (app ids change on every run, so the committed ones are refreshed on purpose
 * only).
 */
final class ConsoleBrowser {

    static final Dimension DESKTOP = new Dimension(1280, 900);
    static final Dimension PHONE = new Dimension(390, 844);
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = "update".equals(System.getProperty("console.screenshots"))
            ? Path.of("../docs/console")
            : Path.of("target/console-screenshots");
    private static WebDriver browser;
    private static String consoleUrl;

    private ConsoleBrowser() {}

    /** The browser on the shared stack's console, started on first use; each call resets the window to desktop size. */
    static synchronized WebDriver browser() throws Exception {
        if (browser == null) {
            installBrowser();
            consoleUrl = ConsoleStack.get().console.baseUrl() + "/console";
            System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
            ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless",
                    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    "--window-size=" + DESKTOP.width + "," + DESKTOP.height);
            // the page's console messages, where the browser reports what the Content-Security-Policy blocked
            options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
            WebDriver started = new ChromeDriver(new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile()).build(), options);
            started.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
            // elements of a page still loading are waited for
            started.manage().timeouts().implicitlyWait(Duration.ofSeconds(5));
            Runtime.getRuntime().addShutdownHook(new Thread(started::quit, "console-browser-stop"));
            browser = started;
        }
        browser.manage().window().setSize(DESKTOP);
        return browser;
    }

    /**
     * Chromium, chromedriver and the CJK font, installed by deploy/local/install-browser.sh when one is missing (the
     * script returns at once when all are there), so the test command needs no manual step.
     */
    private static void installBrowser() throws IOException, InterruptedException {
        Process install = new ProcessBuilder("../deploy/local/install-browser.sh").redirectErrorStream(true).start();
        String output = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (install.waitFor() != 0 || !Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("deploy/local/install-browser.sh did not install the browser:\n" + output);
        }
    }

    /** Signed out, whatever the test before left (a failed test does not reach its sign-out). */
    static void signOut() {
        open("/sign-in"); // cookies are deleted for the page's origin
        browser.manage().deleteAllCookies();
    }

    static void signInAsAdmin(ConsoleStack.App app) {
        open("/sign-in");
        type("app_id", app.id());
        type("admin_token", app.adminToken());
        submit("admin-submit");
        assertEquals("/console/", path());
    }

    static void signInAsOperator() {
        open("/sign-in");
        type("platform_key", ConsoleStack.PLATFORM_KEY);
        submit("operator-submit");
        assertEquals("/console/apps", path());
    }

    /** Opens a console page; the path is under /console. */
    static void open(String path) {
        browser.get(consoleUrl + path);
    }

    /**
     * Clicks a button that sends a form and waits for the next page to replace this one. A click that fails because
     * the page's DOM changed between finding the button and clicking it reads the page and clicks again.
     */
    static void submit(String buttonId) {
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

    static List<String> cells(By row) {
        return browser.findElement(row).findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
    }

    static String path() {
        return URI.create(browser.getCurrentUrl()).getPath();
    }

    static void type(String id, String value) {
        WebElement field = browser.findElement(By.id(id));
        field.clear();
        field.sendKeys(value);
    }

    /** The element's text, read again if htmx replaced the element between finding and reading it. */
    static String text(String id) {
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

    /** The window's size (DESKTOP or PHONE); browser() sets DESKTOP again. */
    static void resize(Dimension size) {
        browser.manage().window().setSize(size);
    }

    /**
     * What the Content-Security-Policy blocked since the last call: the browser's console messages that say so (reading
     * the log empties it).
     */
    static List<String> policyViolations() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy")).toList();
    }

    static void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}

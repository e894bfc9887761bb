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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.testing.Eventually;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

/**
 * The Users page in a real browser ({@link ConsoleBrowser}) on the shared stack ({@link ConsoleStack}): a user found by
 * id, user name or alias; a disabled user's devices and provider tokens still shown; no error right after Enable;
 * Disable only after a confirmation.
 */
class ConsoleUsersIT extends ConsoleBrowsing {

    private static final String PASSWORD = "users-pass-1";

    /** A registered user with one device (guid {@code phone}) and a provider token bound to it. */
    private record User(long id, String name, String token, String pushToken, String deviceToken) {}

    @Test
    void aUserIsFoundByIdByNameAndByAlias() throws Exception {
        ConsoleStack.App app = stack.newApp("users-lookup");
        User user = newUser(app, "alias_owner");
        Map<String, String> asUser = Map.of("app_id", app.id(), "access-token", user.token());
        // push-service learns the device's push_token from auth-service's event: the alias waits for it
        Eventually.until(Duration.ofSeconds(20), "the alias is set", () -> stack.send("POST", stack.push,
                "/user/push/alias", asUser, "{\"alias\":\"night-shift\",\"push_token\":\"" + user.pushToken() + "\"}")
                .path("code").asInt() == 200);
        User other = newUser(app, "alias_other");
        ConsoleStack.App elsewhere = stack.newApp("users-elsewhere");
        newUser(elsewhere, "only_elsewhere");
        signInAsAdmin(app);

        for (String query : List.of(user.name(), user.name().toUpperCase(), Long.toString(user.id()))) {
            find(query, "user");
            assertEquals("User " + user.id() + ": " + user.name(), text("user-title"), query);
            assertEquals("enabled", text("user-state"), query);
            assertEquals(List.of("1", "phone"), cells(By.xpath("//table[@id='devices']/tbody/tr[1]")).subList(0, 2));
            assertTrue(text("tokens").contains("vendor_b"), text("tokens"));
        }
        screenshot("users-lookup");

        find("night-shift", "alias");
        assertEquals(List.of(Long.toString(user.id())), cells(By.xpath("//table[@id='alias-users']/tbody/tr")));
        browser.findElement(By.linkText(Long.toString(user.id()))).click();
        assertEquals("User " + user.id() + ": " + user.name(), text("user-title"));
        find(other.name(), "alias");
        assertEquals("No device of this app carries this alias.", text("alias-users").lines().toList().get(1));

        find("nobody_by_this_name", "user");
        assertEquals("No user named nobody_by_this_name in this app.", text("search-error"));
        assertTrue(browser.findElements(By.id("user-title")).isEmpty());
        find("only_elsewhere", "user");
        assertEquals("No user named only_elsewhere in this app.", text("search-error"), "another app's user");
        find("999999999999", "user");
        assertEquals("No user with id 999999999999 in this app.", text("search-error"));
        find("two words", "user");
        assertEquals("User not looked up: 10002: username: 3 to 32 letters, digits or _, not all digits",
                text("search-error"));
        find("<b>x</b>", "alias");
        assertEquals("Users with alias <b>x</b>", browser.findElement(By.xpath("//h2[1]")).getText(), "escaped");
    }

    @Test
    void theUserPageShowsTheNewestChangeLogEventsFirst() throws Exception {
        ConsoleStack.App app = stack.newApp("users-events");
        User user = newUser(app, "with_events");
        stack.recentEvents.put(app.id() + "/" + user.id(), "[{\"type\":\"message\",\"cursor\":\"a\","
                + "\"conversation_id\":7,\"message\":{\"msg_id\":41,\"timestamp\":1795000000000,\"status\":\"READ\","
                + "\"ctype\":\"TEXT\",\"content\":\"<b>hello</b>\"}},{\"type\":\"group\",\"cursor\":\"b\","
                + "\"conversation_id\":1000000000001,\"change\":\"joined\",\"user_ids\":[5]}]");
        signInAsAdmin(app);
        open("/users?user_id=" + user.id());
        assertEquals(List.of("group", "1000000000001", "", "", "-", "{\"change\":\"joined\",\"user_ids\":[5]}"),
                cells(By.xpath("//table[@id='events']/tbody/tr[1]")), "the newest first");
        List<String> message = cells(By.xpath("//table[@id='events']/tbody/tr[2]"));
        assertEquals(List.of("message", "7", "41", "READ"), message.subList(0, 4));
        assertEquals("<b>hello</b>", message.get(5), "the content as text, never as markup");
        assertEquals("", text("events-error"));
    }

    @Test
    void aDisabledUsersDevicesAndTokensStayVisible() throws Exception {
        ConsoleStack.App app = stack.newApp("users-disabled");
        User user = newUser(app, "disabled_one");
        stack.api("PUT", stack.auth, "/user/disable", admin(app), "{\"list\":[" + user.id() + "]}");
        signInAsAdmin(app);
        open("/users?user_id=" + user.id());
        assertTrue(text("devices").contains("phone"), text("devices"));
        assertEquals("disabled", text("user-state"));
        // push-service's view of the user turns disabled with auth-service's event: the tokens must show after it too
        Eventually.until(Duration.ofSeconds(20), "push-service sees the user disabled", () -> stack.send("GET",
                stack.push, "/user/token/list", Map.of("app_id", app.id(), "access-token", user.token()), "")
                .path("code").asInt() == 10014);
        open("/users?user_id=" + user.id());
        assertEquals("", text("tokens-error"));
        assertEquals("vendor_b", cells(By.xpath("//table[@id='tokens']/tbody/tr[1]")).get(2), text("tokens"));
        assertEquals(10014, stack.send("GET", stack.auth, "/user/device/list",
                Map.of("app_id", app.id(), "access-token", user.token()), "").path("code").asInt(),
                "the disabled user's own token is still refused");
    }

    @Test
    void rightAfterEnableThePageShowsTheUserEnabledWithoutAnError() throws Exception {
        ConsoleStack.App app = stack.newApp("users-enable");
        User user = newUser(app, "enabled_again");
        signInAsAdmin(app);
        for (int round = 1; round <= 3; round++) {
            stack.api("PUT", stack.auth, "/user/disable", admin(app), "{\"list\":[" + user.id() + "]}");
            // push-service has seen the user disabled: the enable below races with the event that undoes it
            Eventually.until(Duration.ofSeconds(20), "push-service sees the user disabled", () -> stack.send("GET",
                    stack.push, "/user/token/list", Map.of("app_id", app.id(), "access-token", user.token()), "")
                    .path("code").asInt() == 10014);
            open("/users?user_id=" + user.id());
            submit("user-enable");
            assertEquals("User " + user.id() + " enabled.", text("notice"));
            assertEquals("", text("tokens-error"), "round " + round);
            assertEquals("", text("devices-error"), "round " + round);
            assertEquals("enabled", text("user-state"));
            assertTrue(text("tokens").contains("vendor_b"), text("tokens"));
            assertTrue(text("devices").contains("phone"), text("devices"));
        }
    }

    @Test
    void disablingAUserAsksFirst() throws Exception {
        ConsoleStack.App app = stack.newApp("users-confirm");
        User user = newUser(app, "confirm_me");
        Map<String, String> asUser = Map.of("app_id", app.id(), "access-token", user.token());
        signInAsAdmin(app);
        open("/users?user_id=" + user.id());
        submit("user-disable");
        assertEquals("Disable user " + user.name() + " (" + user.id() + ")? Their tokens stop working.",
                browser.findElement(By.cssSelector("#disable-confirm p")).getText());
        assertEquals("enabled", text("user-state"), "nothing changed yet");
        assertEquals(200, stack.send("GET", stack.auth, "/user/device/list", asUser, "").path("code").asInt());
        screenshot("users-disable-confirm");

        submit("user-disable-cancel");
        assertEquals("/console/users", path());
        assertTrue(browser.findElements(By.id("disable-confirm")).isEmpty());
        assertEquals("enabled", text("user-state"));
        assertEquals(200, stack.send("GET", stack.auth, "/user/device/list", asUser, "").path("code").asInt());

        submit("user-disable");
        submit("user-disable-confirm");
        assertEquals("User " + user.id() + " disabled.", text("notice"));
        assertEquals("disabled", text("user-state"));
        assertEquals(10014, stack.send("GET", stack.auth, "/user/device/list", asUser, "").path("code").asInt());
    }

    private static void find(String query, String by) {
        open("/users");
        type("q", query);
        new Select(browser.findElement(By.id("by"))).selectByValue(by);
        submit("lookup-submit");
    }

    private static Map<String, String> admin(ConsoleStack.App app) {
        return Map.of("app_id", app.id(), "access-token", app.adminToken());
    }

    /** Registers a user, logs in on device {@code phone} and binds a Xiaomi token (the app's certificate) to it. */
    private static User newUser(ConsoleStack.App app, String name) throws Exception {
        stack.api("POST", stack.push, "/push/certificate", admin(app), "{\"provider\":3,\"environment\":1,"
                + "\"name\":\"mi-users\",\"app_id\":\"com.example.users\",\"app_secret\":\"users-secret\"}");
        long id = stack.api("POST", stack.auth, "/user/register/v2", Map.of("app_id", app.id()),
                "{\"username\":\"" + name + "\",\"password\":\"" + PASSWORD + "\"}").get("user_id").asLong();
        JsonNode login = stack.api("POST", stack.auth, "/token/user", Map.of("app_id", app.id()),
                "{\"name\":\"" + name + "\",\"password\":\"" + PASSWORD + "\",\"device_guid\":\"phone\"}");
        String token = login.get("token").asText();
        String deviceToken = "users-device-" + UUID.randomUUID();
        stack.api("POST", stack.push, "/user/token/bind", Map.of("app_id", app.id(), "access-token", token),
                "{\"device_sn\":1,\"device_token\":\"" + deviceToken + "\",\"notifier_name\":\"mi-users\"}");
        return new User(id, name, token, login.get("push_token").asText(), deviceToken);
    }
}

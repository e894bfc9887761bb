package io.imcore.console;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.WebDriver;

/** What every browser test class starts from: the shared stack and browser, and each test signed out. */
abstract class ConsoleBrowsing {

    static ConsoleStack stack;
    static WebDriver browser;

    @BeforeAll
    static void startStackAndBrowser() throws Exception {
        stack = ConsoleStack.get();
        browser = ConsoleBrowser.browser();
    }

    @BeforeEach
    void signedOut() {
        ConsoleBrowser.signOut();
    }
}

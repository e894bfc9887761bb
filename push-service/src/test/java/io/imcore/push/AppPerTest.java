package io.imcore.push;

import io.imcore.common.store.Database;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;

/** The start most tests of this service share: a new app before each test, with no users yet. */
public abstract class AppPerTest {

    @Inject
    protected Database database;

    protected PushApi api;

    @BeforeEach
    void newApp() {
        api = PushApi.newApp(database);
    }
}

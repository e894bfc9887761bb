package io.imcore.message;

import io.imcore.common.store.Database;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;

/** The start most tests of this service share: before each test, a new app with three users, alice, bob and carol. */
public abstract class AppWithUsers {

    @Inject
    protected Database database;

    protected MessageApi api;
    protected long alice;
    protected long bob;
    protected long carol;

    @BeforeEach
    void newAppWithUsers() {
        api = MessageApi.newApp(database);
        alice = api.newUser();
        bob = api.newUser();
        carol = api.newUser();
    }
}

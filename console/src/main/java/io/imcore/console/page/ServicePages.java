package io.imcore.console.page;

import io.imcore.console.backend.BackendClient;
import jakarta.inject.Inject;

/**
 * What a page class that shows our services stands on: the guard each of its requests passes first and the client
 * it calls the services with, under the session's credentials.
 */
public abstract class ServicePages {

    @Inject
    protected SessionGuard guard;
    @Inject
    protected BackendClient backend;
}

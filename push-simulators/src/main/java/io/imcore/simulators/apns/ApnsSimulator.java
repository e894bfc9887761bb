package io.imcore.simulators.apns;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.ext.web.Router;

/** UNFINISHED: the ios provider simulator; its protocol routes are not written yet. */
public class ApnsSimulator extends ProviderSimulator {

    @Override
    public String channel() {
        return "ios";
    }

    @Override
    protected void routes(Router router) {
        // not written yet
    }
}

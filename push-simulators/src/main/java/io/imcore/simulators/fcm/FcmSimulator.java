package io.imcore.simulators.fcm;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.ext.web.Router;

/** UNFINISHED: the cloud provider simulator; its protocol routes are not written yet. */
public class FcmSimulator extends ProviderSimulator {

    @Override
    public String channel() {
        return "cloud";
    }

    @Override
    protected void routes(Router router) {
        // not written yet
    }
}

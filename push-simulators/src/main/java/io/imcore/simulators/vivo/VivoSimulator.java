package io.imcore.simulators.vivo;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.ext.web.Router;

/** UNFINISHED: the vendor_d provider simulator; its protocol routes are not written yet. */
public class VivoSimulator extends ProviderSimulator {

    @Override
    public String channel() {
        return "vendor_d";
    }

    @Override
    protected void routes(Router router) {
        // not written yet
    }
}

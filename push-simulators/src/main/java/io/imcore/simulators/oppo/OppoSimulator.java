package io.imcore.simulators.oppo;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.ext.web.Router;

/** UNFINISHED: the vendor_c provider simulator; its protocol routes are not written yet. */
public class OppoSimulator extends ProviderSimulator {

    @Override
    public String channel() {
        return "vendor_c";
    }

    @Override
    protected void routes(Router router) {
        // not written yet
    }
}

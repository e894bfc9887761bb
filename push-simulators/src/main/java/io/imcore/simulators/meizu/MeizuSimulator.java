package io.imcore.simulators.meizu;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.ext.web.Router;

/** UNFINISHED: the vendor_e provider simulator; its protocol routes are not written yet. */
public class MeizuSimulator extends ProviderSimulator {

    @Override
    public String channel() {
        return "vendor_e";
    }

    @Override
    protected void routes(Router router) {
        // not written yet
    }
}

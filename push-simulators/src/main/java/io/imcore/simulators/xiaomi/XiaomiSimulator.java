package io.imcore.simulators.xiaomi;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.ext.web.Router;

/** UNFINISHED: the vendor_b provider simulator; its protocol routes are not written yet. */
public class XiaomiSimulator extends ProviderSimulator {

    @Override
    public String channel() {
        return "vendor_b";
    }

    @Override
    protected void routes(Router router) {
        // not written yet
    }
}

package io.imcore.simulators.huawei;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.ext.web.Router;

/** UNFINISHED: the vendor_a provider simulator; its protocol routes are not written yet. */
public class HuaweiSimulator extends ProviderSimulator {

    @Override
    public String channel() {
        return "vendor_a";
    }

    @Override
    protected void routes(Router router) {
        // not written yet
    }
}

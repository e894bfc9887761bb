package io.imcore.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Points the Quarkus app under test at the JVM-wide {@link SharedInfrastructure}; never stops it per class. */
public class InfrastructureResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return SharedInfrastructure.get().quarkusConfig();
    }

    @Override
    public void stop() {
        // shared by every test class of this JVM; stopped by a shutdown hook
    }
}

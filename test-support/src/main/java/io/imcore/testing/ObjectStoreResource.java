package io.imcore.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points the Quarkus app under test at the JVM's {@link TestObjectStore} (a real S3 server); declare it with
 * {@code parallel = true} so that it starts while PostgreSQL and Kafka do. Never stopped per class.
 */
public class ObjectStoreResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        TestObjectStore store = TestObjectStore.get();
        return Map.of(
                "im.file.store.endpoint", store.endpoint(),
                "im.file.store.bucket", TestObjectStore.BUCKET,
                "im.file.store.access-key", TestObjectStore.ACCESS_KEY,
                "im.file.store.secret-key", TestObjectStore.SECRET_KEY);
    }

    @Override
    public void stop() {
        // shared by every test class of this JVM; stopped by a shutdown hook
    }
}

package io.imcore.pushworker;

import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.ServiceBaselineTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** push-worker meets the baseline of every service ({@link ServiceBaselineTest}). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class PushWorkerBaselineTest extends ServiceBaselineTest {}

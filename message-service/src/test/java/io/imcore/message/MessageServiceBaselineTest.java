package io.imcore.message;

import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.ServiceBaselineTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** message-service meets the baseline of every service ({@link ServiceBaselineTest}). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class MessageServiceBaselineTest extends ServiceBaselineTest {}

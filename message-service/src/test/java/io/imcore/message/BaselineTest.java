package io.imcore.message;

import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.ServiceBaselineTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class BaselineTest extends ServiceBaselineTest {}

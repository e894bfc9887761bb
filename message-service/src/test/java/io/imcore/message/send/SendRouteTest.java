package io.imcore.message.send;

import io.imcore.message.send.request.SendRequest;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.store.Database;
import io.imcore.message.MessageApi;
import io.imcore.message.MessageChecks;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * /message/send is a plain Vert.x route (SendRoute), not a JAX-RS resource: what the resources get from their
 * filters and the OpenAPI scan, the route must give itself. The behaviour of a send is the other tests'.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class SendRouteTest {

    @TestHTTPResource("/message/send")
    URI sendUri;

    @Inject
    Database database;

    @Test
    void theOpenApiDocumentListsBothFormsSoTheFuzzerCoversThem() {
        JsonPath document = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .extract().jsonPath();
        for (String method : List.of("post", "put")) {
            assertEquals("#/components/schemas/SendRequest", document.getString(
                    "paths.'/message/send'." + method + ".requestBody.content.'application/json'.schema.'$ref'"), method);
        }
        // the referenced schema is the generated one, with the fields the fuzzer mutates
        assertEquals("array", document.getString("components.schemas.SendRequest.properties.targets.type"));
    }

    @Test
    void theCorrelationIdIsEchoedWhenSaneAndReplacedOtherwise() {
        MessageApi api = MessageApi.newApp(database);
        long alice = api.newUser();
        long bob = api.newUser();
        api.as(alice).header("X-Request-Id", "trace-42.a_b").body(MessageApi.text("hi", List.of(bob)))
                .post("/message/send").then().statusCode(200)
                .header("X-Request-Id", "trace-42.a_b")
                .header("Content-Type", "application/json;charset=UTF-8")
                .body("code", equalTo(200)).body("data", equalTo(true)).body("message", nullValue());
        api.as(alice).header("X-Request-Id", "<script>").body(MessageApi.text("hi", List.of(bob)))
                .put("/message/send").then().statusCode(200)
                .header("X-Request-Id", matchesPattern("[0-9a-f-]{36}"))
                .body("code", equalTo(200));
        assertEquals(2, MessageChecks.messagesWithContent(database, api, "hi"));
    }

    @Test
    void aChunkedBodyIsReadAndStored() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        long alice = api.newUser();
        long bob = api.newUser();
        byte[] body = ("{\"content_type\":0,\"content\":\"chunked hello\",\"targets\":[" + bob + "],\"type\":1}")
                .getBytes(StandardCharsets.UTF_8);
        // a body of unknown length goes chunked: EdgeResponses reads it before the route does
        HttpRequest request = HttpRequest.newBuilder(sendUri)
                .header("app_id", api.appId).header("access-token", api.userToken(alice))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode());
        assertEquals(200, JsonPath.from(answer.body()).getInt("code"), answer.body());
        assertEquals(1, MessageChecks.messagesWithContent(database, api, "chunked hello"));
    }

    @Test
    void refusalsAreCountedByTheirCodeAndOtherMethodsAreNoEndpoint() {
        double before = refusedWithoutToken();
        given().header("app_id", MessageApi.newApp(database).appId).body("{}").post("/message/send").then()
                .statusCode(200).body("code", equalTo(10003)).body("data", nullValue());
        assertEquals(before + 1, refusedWithoutToken());

        given().get("/message/send").then().statusCode(200)
                .body("code", equalTo(10002)).body("message", equalTo("no such endpoint: GET /message/send"));
    }

    private static double refusedWithoutToken() {
        String metrics = given().get("/q/metrics").asString();
        Matcher line = Pattern.compile("(?m)^imcore_api_responses_total\\{code=\"10003\",route=\"/message/send\"[^}]*}"
                + " (\\S+)$").matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(1)) : 0;
    }
}

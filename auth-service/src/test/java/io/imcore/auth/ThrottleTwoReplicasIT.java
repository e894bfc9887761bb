package io.imcore.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.testing.ServiceProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two processes of the packaged auth-service on one PostgreSQL, as two Kubernetes replicas behind the gateway: the
 * wrong passwords an attacker spreads over both count once, and the owner logs in on either after the wait.
 */
class ThrottleTwoReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String PLATFORM_KEY = "it-platform-key";
    private static final List<ServiceProcess> REPLICAS = new ArrayList<>();

    @BeforeAll
    static void startTwoReplicas() throws Exception {
        for (String name : List.of("auth-one", "auth-two")) {
            REPLICAS.add(ServiceProcess.start(name, Map.of("im.platform-key", PLATFORM_KEY,
                    "im.auth.bcrypt-cost", "4",
                    "im.throttle.login-account.free-failures", "3",
                    "im.throttle.login-account.first-delay", "3S",
                    "im.throttle.login-account.max-delay", "3S")));
        }
    }

    @AfterAll
    static void stop() {
        REPLICAS.forEach(r -> r.process().destroyForcibly());
    }

    private static HttpResponse<String> post(ServiceProcess replica, String path, Map<String, String> headers,
            String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + replica.port() + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int code(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body()).path("code").asInt();
    }

    @Test
    void wrongPasswordsOnBothReplicasCountOnceAndTheOwnerGetsInAfterTheWait() throws Exception {
        String appId = JSON.readTree(post(REPLICAS.get(0), "/app/create", Map.of("platform-key", PLATFORM_KEY), "{}")
                .body()).path("data").path("app_id").asText();
        Map<String, String> app = Map.of("app_id", appId);
        String name = "u" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        assertEquals(200, code(post(REPLICAS.get(1), "/user/register/v2", app,
                "{\"username\":\"" + name + "\",\"password\":\"right-pass-1\"}")));

        List<Integer> codes = new ArrayList<>();
        HttpResponse<String> last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            last = post(REPLICAS.get(attempt % 2), "/token/login", app,
                    "{\"login_name\":\"" + name + "\",\"password\":\"guess-" + attempt + "\"}");
            codes.add(code(last));
        }
        assertEquals(List.of(10013, 10013, 10013, 10013, 10015), codes,
                "3 free failures in all, the 4th starts the delay, whichever replica answers");
        long wait = Long.parseLong(last.headers().firstValue("Retry-After").orElseThrow());
        Thread.sleep(wait * 1000);
        assertEquals(200, code(post(REPLICAS.get(1), "/token/login", app,
                "{\"login_name\":\"" + name + "\",\"password\":\"right-pass-1\"}")), "the owner, after the wait");
    }
}

package io.imcore.pushworker.channel.huawei;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Sends a hand-written request to the Huawei simulator, bypassing the adapter, with a fresh access token. */
final class RawHuaweiClient {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private RawHuaweiClient() {}

    /** POSTs {@code body} to {@code /v1/10086/messages:send} of the simulator at {@code base}. */
    static HttpResponse<String> send(URI base, String body) {
        try {
            String token = JSON.readTree(CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/oauth2/v3/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "grant_type=client_credentials&client_id=10086&client_secret=s")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).get("access_token").asText();
            return CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/v1/10086/messages:send"))
                    .header("Content-Type", "application/json; charset=UTF-8")
                    .header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

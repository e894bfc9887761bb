// The stack's API through the gateway (BASE_URL, APP_ID) with java.net.http.HttpClient: what setup, checks and the
// phases that are not a load loop call with. The load loops send with a LoadClient instead.

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

final class Api {

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    static String baseUrl;
    static String appId;
    static HttpClient http;

    private Api() {}

    static void init() {
        baseUrl = Options.env("BASE_URL").replaceAll("/+$", "");
        appId = Options.env("APP_ID");
        http = newHttpClient();
    }

    /** HTTP/1.1, 10 s to connect: the shared client, and the WebSocket phases' own. */
    static HttpClient newHttpClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    static HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(REQUEST_TIMEOUT)
                .header("app_id", appId);
        if (token != null) {
            b.header("access-token", token);
        }
        return b;
    }

    static HttpRequest get(String path, String token) {
        return request(path, token).GET().build();
    }

    static HttpRequest post(String path, String token, String json) {
        return request(path, token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    /** The body of an HTTP 200 answer, whatever its envelope's code. */
    static String call(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + ": " + Json.abbreviate(response.body()));
        }
        return response.body();
    }

    /** The body of an answer with code 200. */
    static String callOk(HttpRequest request) throws IOException, InterruptedException {
        String body = call(request);
        if (Json.code(body) != 200) {
            throw new IOException(request.method() + " " + request.uri().getPath() + " answered "
                    + Json.abbreviate(body));
        }
        return body;
    }
}

// What the load loops send with: a request prepared once, sent many times from worker w.

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

interface LoadClient {

    record Reply(int status, String body) {}

    Object prepare(String method, String path, String token, String json);

    Reply send(int worker, Object prepared) throws Exception;

    /**
     * The client of option client: raw (default) = a fixed pool of persistent HTTP/1.1 connections, one per worker,
     * over plain sockets with the requests serialised once (RawHttpClient); jdk = java.net.http.HttpClient
     * (HTTP/1.1). On this 2-core machine HttpClient's own CPU use caps it near 2,000 req/s even for nginx's no-op
     * (docs/benchmarks.md), which would measure the load generator instead of the service.
     */
    static LoadClient forWorkers(int workers) {
        String kind = Options.get("client", "raw");
        return switch (kind) {
            case "raw" -> new RawHttpClient(URI.create(Api.baseUrl), workers);
            case "jdk" -> new Jdk();
            default -> throw new IllegalArgumentException("client must be raw or jdk, not " + kind);
        };
    }

    /** client=jdk: Api's shared java.net.http.HttpClient. */
    final class Jdk implements LoadClient {

        @Override
        public Object prepare(String method, String path, String token, String json) {
            HttpRequest.Builder b = Api.request(path, token);
            return json == null ? b.method(method, HttpRequest.BodyPublishers.noBody()).build()
                    : b.header("Content-Type", "application/json")
                            .method(method, HttpRequest.BodyPublishers.ofString(json)).build();
        }

        @Override
        public Reply send(int worker, Object prepared) throws Exception {
            HttpResponse<String> r = Api.http.send((HttpRequest) prepared, HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        }
    }
}

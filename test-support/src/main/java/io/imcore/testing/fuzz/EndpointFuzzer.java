package io.imcore.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.api.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Sends every route of a running service (read from its OpenAPI document) a well-shaped call and then the spoiled
 * ones of {@link FuzzCases}, and checks every answer against the envelope rules (decisions.md section 2): HTTP 200,
 * a JSON body of exactly {@code {code, data, message}}, a known code that is never 50000, no stack trace, an answer
 * within a bounded time, and a body over the size limit refused with 10002 quickly.
 *
 * <p>The cases come from a seeded Random: {@code -Dfuzz.seed=N} replays or varies them (the seed is printed with
 * every failure), {@code -Dfuzz.mutations=N} sets the number of stacked random mutations per route.
 */
public final class EndpointFuzzer {

    public static final long DEFAULT_SEED = 20261123L;
    /** The codes that refuse the caller rather than the request: the route wants another kind of caller. */
    private static final Set<Integer> CALLER_REFUSALS = Set.of(ErrorCode.TOKEN_MISSING.code(),
            ErrorCode.TOKEN_INVALID.code(), ErrorCode.NO_PERMISSION.code(), ErrorCode.APP_NOT_FOUND.code());
    private static final Set<Integer> KNOWN_CODES = Arrays.stream(ErrorCode.values()).map(ErrorCode::code)
            .collect(Collectors.toSet());

    private final URI base;
    private final Map<String, Map<String, String>> callers = new LinkedHashMap<>();
    private final Map<String, String> knownValues = new LinkedHashMap<>();
    private final Map<String, String> notEnvelope = new LinkedHashMap<>();
    private final long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
    private final int mutations = Integer.getInteger("fuzz.mutations", 10);
    private final Duration answerBound = Duration.ofMillis(Long.getLong("fuzz.max-answer-ms", 10_000));
    private final Duration tooLargeBound = Duration.ofMillis(Long.getLong("fuzz.max-too-large-ms", 5_000));
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final List<String> failures = new ArrayList<>();
    private final Map<Integer, Integer> codeCounts = new TreeMap<>();
    private int requests;
    private Duration slowest = Duration.ZERO;

    private EndpointFuzzer(URI base) {
        this.base = base;
    }

    public static EndpointFuzzer of(URI base) {
        return new EndpointFuzzer(base);
    }

    /**
     * A kind of caller (the headers it sends). Each route is fuzzed as the first caller, in the order given, that it
     * does not refuse (10003, 10008, 10010, 40000), so that the spoiled requests get past authentication.
     */
    public EndpointFuzzer caller(String name, Map<String, String> headers) {
        callers.put(name, headers);
        return this;
    }

    /** A value a parameter must have for the call to get past its first check (a receipt key, a channel name). */
    public EndpointFuzzer knownValue(String parameter, String value) {
        knownValues.put(parameter, value);
        return this;
    }

    /**
     * A route whose answer is a standard document rather than the API envelope (a JWK Set): left out, for the
     * {@code reason} given. Naming an absent route fails, so an exemption cannot outlive its route unnoticed.
     */
    public EndpointFuzzer notEnvelope(String method, String path, String reason) {
        notEnvelope.put(method + " " + path, reason);
        return this;
    }

    /** Fuzzes every route; fails listing every answer that broke a rule, with the seed that reproduces it. */
    public void assertEveryAnswerIsTheEnvelope() {
        List<Route> all = OpenApiRoutes.of(base);
        List<Route> routes = all.stream().filter(r -> !notEnvelope.containsKey(r.method() + " " + r.path())).toList();
        if (all.size() - routes.size() != notEnvelope.size()) {
            throw new AssertionError("exempted routes not in the OpenAPI document: " + notEnvelope.keySet());
        }
        if (routes.isEmpty()) {
            throw new AssertionError("the OpenAPI document of " + base + " lists no routes");
        }
        long started = System.nanoTime();
        for (Route route : routes) {
            FuzzCases cases = new FuzzCases(new Random(seed * 31 + route.toString().hashCode()), knownValues);
            Map<String, String> caller = acceptedCaller(route, cases);
            cases.all(route, caller, mutations).forEach(c -> send(route, c));
        }
        System.out.printf("fuzz %s: seed %d, %d routes, %d requests in %d ms, slowest answer %d ms, codes %s%n",
                base, seed, routes.size(), requests, (System.nanoTime() - started) / 1_000_000, slowest.toMillis(),
                codeCounts);
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " answers broke the envelope rules (rerun with -Dfuzz.seed="
                    + seed + "):\n" + failures.stream().limit(40).collect(Collectors.joining("\n")));
        }
    }

    private Map<String, String> acceptedCaller(Route route, FuzzCases cases) {
        for (Map<String, String> caller : callers.values()) {
            Integer code = send(route, cases.wellShaped(route, caller));
            if (code != null && !CALLER_REFUSALS.contains(code)) {
                return caller;
            }
        }
        return callers.values().iterator().next();
    }

    /** Sends one case, records what broke a rule, and returns the answer's code (null when there was none). */
    private Integer send(Route route, FuzzCase fuzzCase) {
        HttpRequest request;
        try {
            request = request(fuzzCase);
        } catch (IllegalArgumentException unsendable) {
            return null; // a header value java.net.http refuses to send: no server sees it either
        }
        requests++;
        long started = System.nanoTime();
        HttpResponse<byte[]> response;
        try {
            response = sendOnce(request);
        } catch (IOException e) {
            fail(route, fuzzCase, "no answer: " + e);
            return null;
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        slowest = elapsed.compareTo(slowest) > 0 ? elapsed : slowest;
        String problem = problem(response, elapsed, fuzzCase.tooLarge());
        Integer code = codeOf(response.body());
        codeCounts.merge(code == null ? -1 : code, 1, Integer::sum);
        if (problem != null) {
            fail(route, fuzzCase, problem + "; answer HTTP " + response.statusCode() + " "
                    + excerpt(response.body()) + " after " + elapsed.toMillis() + " ms");
        }
        return code;
    }

    /**
     * Sends the request, once more if the connection broke without a timeout: the client may have reused a pooled
     * connection the server had just closed after a previous answer. A server that drops this request every time
     * fails the second try as well.
     */
    private HttpResponse<byte[]> sendOnce(HttpRequest request) throws IOException {
        try {
            try {
                return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (HttpTimeoutException e) {
                throw e;
            } catch (IOException brokenConnection) {
                return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpRequest request(FuzzCase fuzzCase) {
        HttpRequest.BodyPublisher body = fuzzCase.body() == null ? HttpRequest.BodyPublishers.noBody()
                : fuzzCase.chunked()
                        ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(fuzzCase.body()))
                        : HttpRequest.BodyPublishers.ofByteArray(fuzzCase.body());
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "")
                        + fuzzCase.pathAndQuery()))
                .timeout(answerBound.multipliedBy(2))
                .method(fuzzCase.method(), body);
        if (!fuzzCase.headers().containsKey("Content-Type")) {
            builder.header("Content-Type", "application/json");
        }
        fuzzCase.headers().forEach(builder::header);
        return builder.build();
    }

    /** What is wrong with the answer by the envelope rules, or null. */
    private String problem(HttpResponse<byte[]> response, Duration elapsed, boolean tooLarge) {
        if (response.statusCode() != 200) {
            return "HTTP status is not 200";
        }
        if (!response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            return "Content-Type is not application/json";
        }
        JsonNode envelope;
        try {
            envelope = JsonShapes.JSON.readTree(response.body());
        } catch (IOException e) {
            return "body is not JSON";
        }
        if (envelope == null || !envelope.isObject() || envelope.size() != 3 || !envelope.has("code")
                || !envelope.has("data") || !envelope.has("message")) {
            return "body is not exactly {code, data, message}";
        }
        int code = envelope.get("code").asInt();
        if (!envelope.get("code").isInt() || !KNOWN_CODES.contains(code)) {
            return "code is not one of decisions.md section 2";
        }
        if (code == ErrorCode.INTERNAL.code()) {
            return "internal error (50000)";
        }
        if (code != ErrorCode.OK.code()) {
            String message = envelope.get("message").asText("");
            if (!envelope.get("data").isNull() || message.isBlank()) {
                return "an error must carry data null and a message";
            }
            if (message.contains("Exception") || message.contains("\tat ") || message.contains("<html")) {
                return "message leaks internals";
            }
        }
        if (tooLarge && code != ErrorCode.BAD_PARAMETER.code()) {
            return "a body over the limit must be 10002";
        }
        if (tooLarge && elapsed.compareTo(tooLargeBound) > 0) {
            return "a body over the limit must be refused within " + tooLargeBound.toMillis() + " ms";
        }
        if (elapsed.compareTo(answerBound) > 0) {
            return "answer slower than " + answerBound.toMillis() + " ms";
        }
        return null;
    }

    private static Integer codeOf(byte[] body) {
        try {
            JsonNode code = JsonShapes.JSON.readTree(body).path("code");
            return code.isInt() ? code.asInt() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void fail(Route route, FuzzCase fuzzCase, String problem) {
        failures.add("[seed " + seed + "] " + route + " " + fuzzCase.describe() + " -> " + problem);
    }

    private static String excerpt(byte[] body) {
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}

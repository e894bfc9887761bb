package io.imcore.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.imcore.simulators.registry.Simulators;
import io.imcore.testing.Eventually;
import io.imcore.testing.ServiceProcess;
import io.imcore.testing.SharedInfrastructure;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.UUID;

/**
 * The services the console's browser tests drive, started once per test JVM and shared by every browser test class:
 * auth-service, push-service and push-worker as real packaged processes on the shared embedded PostgreSQL and Kafka,
 * push-worker's Xiaomi channel pointed at its simulator, and the console itself. Each test makes its own app,
 * so the classes do not see each other's data.
 */
final class ConsoleStack {

    static final String PLATFORM_KEY = "console-it-platform-key";
    /** 32 bytes, base64: the certificate sealing key push-service and push-worker share. */
    private static final String CERTIFICATE_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static ConsoleStack started;

    final Simulators simulators;
    final ServiceProcess auth;
    final ServiceProcess push;
    final ServiceProcess worker;
    final ServiceProcess console;
    private final HttpServer messageService;
    /** The stand-in's webhook and word filter API, per app (the Webhooks page's browser test). */
    final WebhookStandIn webhooks = new WebhookStandIn();
    /** The stand-in's message and file reads behind a traced message's attachment. */
    final FileMessageStandIn fileMessages = new FileMessageStandIn();

    /** The stand-in's {@code GET /message/recent_events} events (a JSON array) per "app/user"; none otherwise. */
    final Map<String, String> recentEvents = new ConcurrentHashMap<>();

    /** An app made for one test: its id and its admin token. */
    record App(String id, String adminToken) {}

    static synchronized ConsoleStack get() throws Exception {
        if (started == null) {
            started = new ConsoleStack();
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "console-stack-stop"));
        }
        return started;
    }

    private ConsoleStack() throws Exception {
        SharedInfrastructure infrastructure = SharedInfrastructure.get();
        try (Connection c = DriverManager.getConnection(infrastructure.jdbcUrl(), "postgres", "postgres");
                Statement statement = c.createStatement()) {
            statement.execute("create database auth");
            statement.execute("create database push");
        }
        Path simulatorDir = Files.createTempDirectory("console-simulators");
        simulators = Simulators.start(simulatorDir, 0);
        Map<String, String> common = Map.of("im.platform-key", PLATFORM_KEY,
                "im.internal-key", "console-it-internal-key");
        auth = ServiceProcess.start("auth-service", Path.of("../auth-service"),
                with(common, "quarkus.datasource.jdbc.url", infrastructure.jdbcUrl("auth")));
        Map<String, String> pushConfig = with(common, "quarkus.datasource.jdbc.url", infrastructure.jdbcUrl("push"));
        pushConfig.put("im.push.certificate-key", CERTIFICATE_KEY);
        Map<String, String> serviceConfig = new HashMap<>(pushConfig);
        serviceConfig.put("im.auth-service.url", auth.baseUrl());
        int workerPort = ServiceProcess.freePort();
        serviceConfig.put("im.push.worker-url", "http://127.0.0.1:" + workerPort);
        push = ServiceProcess.start("push-service", Path.of("../push-service"), serviceConfig);
        Map<String, String> workerConfig = new HashMap<>(pushConfig);
        String xiaomi = "http://127.0.0.1:" + simulators.get("vendor_b").port();
        workerConfig.put("im.push.worker.channels", "vendor_b");
        workerConfig.put("im.push.worker.channel.vendor_b.base-url", xiaomi);
        workerConfig.put("im.push.worker.channel.vendor_b.development-base-url", xiaomi);
        worker = ServiceProcess.start("push-worker", Path.of("../push-worker"), workerConfig, workerPort);
        // message-service is not started (it would slow these tests by more than its group lookup is worth): a
        // stand-in answers its two group reads the way GroupResource does, group_id read from the query only, and its
        // webhook and word filter API (WebhookStandIn)
        messageService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        messageService.createContext("/group/", ConsoleStack::groupStandIn);
        messageService.createContext("/app/", webhooks::handle);
        messageService.createContext("/message/conversation", fileMessages::conversation);
        messageService.createContext("/file/download", fileMessages::download);
        messageService.createContext("/file/list", fileMessages::list);
        messageService.createContext("/store/thumb", FileMessageStandIn::thumbnail);
        fileMessages.baseUrl("http://127.0.0.1:" + messageService.getAddress().getPort());
        messageService.createContext("/message/recent_events", exchange -> answer(exchange,
                "{\"code\":200,\"message\":null,\"data\":{\"events\":" + recentEvents.getOrDefault(
                        exchange.getRequestHeaders().getFirst("app_id") + "/"
                                + exchange.getRequestHeaders().getFirst("user_id"), "[]")
                        + ",\"cursor\":\"c\",\"has_more\":false}}"));
        messageService.createContext("/file/usage", exchange -> answer(exchange,
                "{\"code\":200,\"message\":null,\"data\":{\"files\":3,\"bytes\":1572864}}"));
        messageService.start();
        console = ServiceProcess.start("console", Path.of("."), Map.of(
                "im.console.auth-service-url", auth.baseUrl(),
                "im.console.message-service-url", "http://127.0.0.1:" + messageService.getAddress().getPort(),
                "im.console.push-service-url", push.baseUrl(),
                "im.console.push-worker-url", worker.baseUrl()));
    }

    private void stop() {
        for (ServiceProcess process : new ServiceProcess[] {console, worker, push, auth}) {
            process.process().destroyForcibly();
        }
        try {
            simulators.close();
        } catch (Exception ignored) {
            // the JVM is ending
        }
        messageService.stop(0);
    }

    /** A new app, made by the operator through auth-service. */
    App newApp(String name) throws Exception {
        JsonNode app = api("POST", auth, "/app/create", Map.of("platform-key", PLATFORM_KEY),
                "{\"name\":\"" + name + "\"}");
        return new App(app.get("app_id").asText(), app.get("admin_token").asText());
    }

    /** An app with push on, one user with a Xiaomi device, and a task pushed to that user through the API, done. */
    record Pushed(App app, long userId, long taskId) {}

    /**
     * A push to a user's device through a Xiaomi certificate (the simulator answers), so every page has rows; the
     * notification carries {@code title} and {@code body}.
     */
    Pushed pushToADevice(String name, String title, String body) throws Exception {
        App app = newApp(name);
        Map<String, String> admin = Map.of("app_id", app.id(), "access-token", app.adminToken());
        api("POST", push, "/push/enable?value=true", admin, "");
        api("POST", push, "/push/certificate", admin, "{\"provider\":3,\"environment\":1,\"name\":\"mi-" + name
                + "\",\"app_id\":\"com.example." + name + "\",\"app_secret\":\"" + name + "-secret\"}");
        String user = name + "_" + UUID.randomUUID().toString().substring(0, 8);
        long userId = api("POST", auth, "/user/register/v2", Map.of("app_id", app.id()),
                "{\"username\":\"" + user + "\",\"password\":\"" + name + "-pass-1\"}").get("user_id").asLong();
        JsonNode login = api("POST", auth, "/token/user", Map.of("app_id", app.id()),
                "{\"name\":\"" + user + "\",\"password\":\"" + name + "-pass-1\",\"device_guid\":\"" + name
                        + "-phone\"}");
        api("POST", push, "/user/token/bind", Map.of("app_id", app.id(), "access-token", login.get("token").asText()),
                "{\"device_sn\":" + login.get("device_sn").asInt() + ",\"device_token\":\"" + name + "-"
                        + UUID.randomUUID() + "\",\"notifier_name\":\"mi-" + name + "\"}");
        long taskId = api("POST", push, "/push/notify", admin, "{\"audience\":{\"user_id\":[" + userId
                + "]},\"message\":{\"title\":" + JSON.writeValueAsString(title) + ",\"body\":"
                + JSON.writeValueAsString(body) + "}}").get("task_id").asLong();
        Eventually.until(Duration.ofSeconds(30), "the task is done", () -> "done".equals(api("POST", push,
                "/push/task/detail", admin, "{\"list\":[" + taskId + "]}").get(0).path("state").asText()));
        return new Pushed(app, userId, taskId);
    }

    /** A service API call that must succeed; returns its data. */
    JsonNode api(String method, ServiceProcess service, String path, Map<String, String> headers, String body)
            throws Exception {
        JsonNode answer = send(method, service, path, headers, body);
        assertEquals(200, answer.path("code").asInt(), path + ": " + answer);
        return answer.get("data");
    }

    /** A service API call, whatever it answers: the whole envelope. */
    JsonNode send(String method, ServiceProcess service, String path, Map<String, String> headers, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        headers.forEach(request::header);
        return JSON.readTree(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> map = new HashMap<>(base);
        map.put(key, value);
        return map;
    }

    /**
     * message-service's {@code GET /group/info} and {@code GET /group/member_list} as GroupResource answers them:
     * {@code group_id} is a query parameter (a header is not read: {@code 10002 group_id: required}), the caller is
     * the app admin's {@code app_id} and {@code access-token}.
     */
    private static void groupStandIn(HttpExchange exchange) throws IOException {
        String groupId = query(exchange).get("group_id");
        String path = exchange.getRequestURI().getPath();
        String body;
        if (exchange.getRequestHeaders().getFirst("access-token") == null) {
            body = "{\"code\":10010,\"message\":\"access-token: required\",\"data\":null}";
        } else if (groupId == null || groupId.isBlank()) {
            body = "{\"code\":10002,\"message\":\"group_id: required\",\"data\":null}";
        } else if (path.equals("/group/info")) {
            body = "{\"code\":200,\"message\":\"ok\",\"data\":{\"group_id\":" + groupId
                    + ",\"name\":\"console-group-" + groupId + "\",\"owner_id\":10001}}";
        } else if (path.equals("/group/member_list")) {
            body = "{\"code\":200,\"message\":\"ok\",\"data\":[{\"user_id\":10001,\"role\":\"owner\","
                    + "\"joined_at\":1700000000000},{\"user_id\":10002,\"role\":\"member\",\"joined_at\":1700000001000}]}";
        } else {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        answer(exchange, body);
    }

    /** A stand-in request's query parameters, decoded. */
    static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> query = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    query.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return query;
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}

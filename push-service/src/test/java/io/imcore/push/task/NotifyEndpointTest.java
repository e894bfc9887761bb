package io.imcore.push.task;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.imcore.push.AppPerTest;
import io.imcore.push.PushApi;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** POST /push/notify and POST /push/task/detail through HTTP, with the real expander behind them. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class NotifyEndpointTest extends AppPerTest {

    private static final String TEXT_TO_ALL =
            "{\"audience\":\"all\",\"setting\":{},\"message\":{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"there\"}}";

    @Inject
    TaskService service;
    @Inject
    ObjectMapper mapper;

    @Test
    void notifyReturnsATaskIdAndTheDetailShowsItsCountersStateAndProgress() {
        long alice = api.newUser();
        api.bindToken(api.newDevice(alice, 1), "ios", "apns-9");
        api.newDevice(alice, 2);
        api.setOnline(alice, 2);

        long taskId = notify(TEXT_TO_ALL);
        JsonPath detail = awaitState(taskId, "dispatching");

        assertEquals(taskId, detail.getLong("data[0].task_id"));
        assertEquals(1, detail.getInt("data[0].ios_target"));
        assertEquals(1, detail.getInt("data[0].svcpush_target"));
        for (String channel : List.of("cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e")) {
            assertEquals(0, detail.getInt("data[0]." + channel + "_target"), channel);
        }
        Map<String, Object> element = detail.getMap("data[0]");
        assertEquals(1 + 40 + 2 + 3, element.size(),
                "task_id, 40 counters, state, progress, created_at, finished_at, failures: " + element.keySet());
        assertEquals(2, detail.getInt("data[0].progress.devices_expanded"));
        assertEquals(2, detail.getInt("data[0].progress.batches_total"));
        assertEquals(0, detail.getInt("data[0].progress.batches_done"));
    }

    @Test
    void theStoredTaskIsTheNormalizedRequest() {
        long taskId = notify("{\"audience\":{\"user_id\":[5,5,6]},\"setting\":{\"ospush_sequence\":[\"cloud\",\"ups\"]},"
                + "\"message\":{\"title\":\"T\",\"body\":\"B\",\"badge\":\"\"}}");

        String stored = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select request::text from push_tasks where task_id = ?")) {
                ps.setLong(1, taskId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        });
        JsonPath request = JsonPath.from(stored);
        assertEquals(List.of(5, 6), request.getList("audience.user_ids"));
        assertEquals(List.of("cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e"),
                request.getList("os_sequence"));
        assertEquals("+1", request.getString("message.badge"));
        assertEquals("text", request.getString("message.type"));
    }

    @Test
    void aRepeatedRequestIdReturnsTheFirstTaskAndStoresNothing() {
        String body = "{\"audience\":\"all\",\"setting\":{\"request_id\":\"r-1\"},\"message\":{\"title\":\"x\"}}";
        long first = notify(body);
        long second = notify(body);
        long other = notify(body.replace("r-1", "r-2"));

        assertEquals(first, second);
        assertTrue(other != first);
        assertEquals(2, taskCount());
    }

    @Test
    void requestIdsOlderThanTheWindowAreForgottenAndPushAgain() {
        String body = "{\"audience\":\"all\",\"setting\":{\"request_id\":\"old\"},\"message\":{\"title\":\"x\"}}";
        long first = notify(body);
        long kept = notify(body.replace("old", "fresh"));
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update push_request_ids set created_at = now() - interval"
                    + " '31 days' where app_id = ? and request_id = 'old'")) {
                ps.setString(1, api.appId);
                ps.executeUpdate();
            }
            return null;
        });

        service.expireRequestIds();

        assertEquals(List.of("fresh"), requestIds());
        assertTrue(notify(body) != first, "a request_id past its window pushes again");
        assertEquals(kept, notify(body.replace("old", "fresh")));
    }

    @Test
    void concurrentCallsWithOneRequestIdStoreOneTask() throws Exception {
        String body = "{\"audience\":\"all\",\"setting\":{\"request_id\":\"race\"},\"message\":{\"title\":\"x\"}}";
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Long>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Callable<Long> call = () -> notify(body);
                calls.add(pool.submit(call));
            }
            Set<Long> ids = new HashSet<>();
            for (Future<Long> call : calls) {
                ids.add(call.get());
            }
            assertEquals(1, ids.size(), "every caller gets the same task_id");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, taskCount());
    }

    @Test
    void pushSwitchedOffIsRefusedWith12006AndStoresNothing() {
        api.asAdmin().queryParam("value", false).post("/push/enable").then().body("code", equalTo(200));

        api.asAdmin().body(TEXT_TO_ALL).post("/push/notify").then().statusCode(200)
                .body("code", equalTo(12006)).body("data", equalTo(null));
        assertEquals(0, taskCount());
    }

    @Test
    void onlyAnAdminTokenMayPushOrReadTasks() {
        long alice = api.newUser();
        api.as(alice).body(TEXT_TO_ALL).post("/push/notify").then().body("code", equalTo(10010));
        api.as(alice).body("{\"list\":[1]}").post("/push/task/detail").then().body("code", equalTo(10010));
    }

    @Test
    void badBodiesGet10002NamingTheField() {
        api.asAdmin().body("{\"audience\":").post("/push/notify").then().statusCode(200).body("code", equalTo(10002));
        api.asAdmin().body("{\"audience\":{},\"message\":{}}").post("/push/notify").then()
                .body("code", equalTo(10002)).body("message", startsWith("audience"));
        String tooMany = LongStream.rangeClosed(1, 501).mapToObj(Long::toString).collect(Collectors.joining(","));
        api.asAdmin().body("{\"audience\":{\"user_id\":[" + tooMany + "]},\"message\":{}}").post("/push/notify")
                .then().body("code", equalTo(12005));
        api.asAdmin().body("{\"audience\":\"all\",\"message\":{\"type\":\"image\",\"attachment_url\":\"http://x/a.gif\"}}")
                .post("/push/notify").then().body("code", equalTo(10002))
                .body("message", startsWith("message.attachment_url"));
        assertEquals(0, taskCount());
    }

    @Test
    void imageAttachmentsAreFetchedForSizeAndReachability() throws IOException {
        HttpServer images = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        images.createContext("/small.png", exchange -> {
            byte[] png = new byte[2_000];
            exchange.sendResponseHeaders(200, png.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(png);
            }
        });
        images.createContext("/big.jpg", exchange -> {
            byte[] chunk = new byte[64 * 1024];
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 20; i++) {
                    out.write(chunk);
                }
            } catch (IOException ignored) {
                // the checker stops reading at the limit
            }
        });
        images.start();
        try {
            String base = "http://127.0.0.1:" + images.getAddress().getPort();
            String image = "{\"audience\":{\"push_token\":[\"t1\"]},\"message\":{\"type\":\"image\","
                    + "\"title\":\"t\",\"body\":\"b\",\"attachment_url\":\"%s\"}}";
            api.asAdmin().body(image.formatted(base + "/small.png")).post("/push/notify").then()
                    .body("code", equalTo(200));
            api.asAdmin().body(image.formatted(base + "/big.jpg")).post("/push/notify").then()
                    .body("code", equalTo(12002));
            api.asAdmin().body(image.formatted(base + "/missing.png")).post("/push/notify").then()
                    .body("code", equalTo(12004));
        } finally {
            images.stop(0);
        }
        assertEquals(1, taskCount());
    }

    @Test
    void detailLeavesOutUnknownAndForeignTasksAndLimitsTheList() {
        long mine = notify(TEXT_TO_ALL);
        PushApi other = PushApi.newApp(database);
        long foreign = JsonPath.from(other.asAdmin().body(TEXT_TO_ALL).post("/push/notify").asString())
                .getLong("data.task_id");

        api.asAdmin().body("{\"list\":[" + foreign + "," + mine + ",999999999]}").post("/push/task/detail").then()
                .body("code", equalTo(200)).body("data", hasSize(1)).body("data[0].task_id", equalTo((int) mine));
        api.asAdmin().body("{\"list\":[]}").post("/push/task/detail").then()
                .body("code", equalTo(200)).body("data", hasSize(0));
        String tooMany = LongStream.rangeClosed(1, 101).mapToObj(Long::toString).collect(Collectors.joining(","));
        api.asAdmin().body("{\"list\":[" + tooMany + "]}").post("/push/task/detail").then()
                .body("code", equalTo(10002)).body("message", startsWith("list"));
        api.asAdmin().body("{}").post("/push/task/detail").then().body("code", equalTo(10002))
                .body("message", startsWith("list"));
        api.asAdmin().body("{\"list\":[\"1\"]}").post("/push/task/detail").then().body("code", equalTo(10002));
    }

    @Test
    void aPushsMessageOptionsReachEachChannelsRecord() throws IOException {
        long alice = api.newUser();
        List<Channel> vendors = List.of(Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO, Channel.VIVO,
                Channel.MEIZU);
        for (int i = 0; i < vendors.size(); i++) {
            api.bindToken(api.newDevice(alice, i + 1), vendors.get(i).wireName(), "token-" + i);
        }

        long taskId = notify("{\"audience\":{\"user_id\":[" + alice + "]},\"message\":{\"title\":\"Hi\","
                + "\"vendor_a\":{\"category\":\"IM\"},\"vendor_b\":{\"channel_id\":\"105411\"},"
                + "\"vendor_c\":{\"category\":\"IM\",\"notify_level\":16},\"vendor_d\":{\"category\":\"IM\"},"
                + "\"vendor_e\":{\"notice_msg_type\":1}}}");

        Map<Channel, String> expected = Map.of(
                Channel.HUAWEI, "{\"category\":\"IM\"}",
                Channel.XIAOMI, "{\"channel_id\":\"105411\"}",
                Channel.OPPO, "{\"category\":\"IM\",\"notify_level\":16}",
                Channel.VIVO, "{\"category\":\"IM\",\"classification\":1,\"push_mode\":0}",
                Channel.MEIZU, "{\"notice_msg_type\":1}");
        for (Channel channel : vendors) {
            List<ConsumerRecord<String, String>> records = TopicReader.await(channel.topic(),
                    r -> r.key().startsWith(taskId + ":"), 1, Duration.ofSeconds(20));
            assertEquals(1, records.size(), channel.topic());
            PushBatch batch = mapper.readValue(records.get(0).value(), PushBatch.class);
            assertEquals(mapper.readTree(expected.get(channel)),
                    batch.message().get("channels").get(channel.wireName()), channel.wireName());
        }
    }

    private long notify(String body) {
        JsonPath answer = JsonPath.from(api.asAdmin().header("x-test", UUID.randomUUID().toString()).body(body)
                .post("/push/notify").then().statusCode(200).extract().asString());
        assertEquals(200, answer.getInt("code"), answer.prettify());
        return answer.getLong("data.task_id");
    }

    private JsonPath awaitState(long taskId, String state) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        JsonPath detail;
        do {
            detail = JsonPath.from(api.asAdmin().body("{\"list\":[" + taskId + "]}").post("/push/task/detail")
                    .then().statusCode(200).body("code", equalTo(200)).extract().asString());
            if (state.equals(detail.getString("data[0].state"))) {
                return detail;
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("task " + taskId + " never reached " + state + ": " + detail.prettify());
    }

    private List<String> requestIds() {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select request_id from push_request_ids where app_id = ? order by request_id")) {
                ps.setString(1, api.appId);
                List<String> ids = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
                return ids;
            }
        });
    }

    private long taskCount() {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select count(*) from push_tasks where app_id = ?")) {
                ps.setString(1, api.appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }
}

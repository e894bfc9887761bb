package io.imcore.pushworker.channel.meizu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.alibaba.fastjson.JSONObject;
import com.meizu.push.sdk.server.IFlymePush;
import com.meizu.push.sdk.server.constant.ResultPack;
import com.meizu.push.sdk.server.model.push.PushResult;
import com.meizu.push.sdk.server.model.push.UnVarnishedMessage;
import com.meizu.push.sdk.server.model.push.VarnishedMessage;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.meizu.MeizuSimulator;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Meizu's official server SDK (com.meizu.flyme:push-server-sdk 1.2.9) against our simulator: the simulator must
 * accept the SDK's requests, sign checked. The SDK's URLs are constants ({@code http://server-api-push.meizu.com},
 * port 80), so this test runs in its own surefire execution (tag {@value #TAG}, push-worker/pom.xml) whose JVM maps
 * that host to 127.0.0.1 with {@code -Djdk.net.hosts.file}, and the simulator listens on 127.0.0.1:80 (root here and
 * in CI). A taken port 80 or a missing host mapping fails the test, never skips it.
 */
@Tag(MeizuOfficialSdkTest.TAG)
class MeizuOfficialSdkTest {

    static final String TAG = "meizu-official-sdk";
    static final String MEIZU_HOST = "server-api-push.meizu.com";
    static final long APP_ID = 100999;
    static final String APP_SECRET = "meizu-sdk-test-secret";

    static final MeizuSimulator simulator = new MeizuSimulator();
    static Vertx vertx;
    static Path workDir;

    @BeforeAll
    static void listenWhereTheSdkCalls() throws Exception {
        InetAddress meizu;
        try {
            meizu = InetAddress.getByName(MEIZU_HOST);
        } catch (java.net.UnknownHostException e) {
            meizu = null;
        }
        if (meizu == null || !meizu.isLoopbackAddress()) {
            fail(MEIZU_HOST + " resolves to " + meizu + ", not 127.0.0.1: run this test through Maven (surefire execution "
                    + TAG + " of push-worker sets -Djdk.net.hosts.file=src/test/resources/meizu/hosts)");
        }
        vertx = Vertx.vertx();
        workDir = Files.createTempDirectory("simulator-meizu-sdk");
        try {
            simulator.start(vertx, "127.0.0.1", 80, workDir).toCompletionStage().toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            fail("cannot listen on 127.0.0.1:80 (" + e.getCause() + "): the official Meizu SDK only calls http://"
                    + MEIZU_HOST + ":80; free port 80 (this test runs as root) and run it again", e);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (workDir != null) {
            Files.deleteIfExists(workDir);
        }
    }

    @BeforeEach
    void registerTheApp() {
        simulator.reset();
        simulator.registerApp(Long.toString(APP_ID), APP_SECRET);
    }

    @Test
    void notificationsOfTheSdkAreAcceptedAndAnsweredPerPushId() throws Exception {
        VarnishedMessage message = new VarnishedMessage.Builder().appId(APP_ID)
                .title("SDK 标题").content("SDK 推送内容")
                .noticeExpandType(1).noticeExpandContent("展开的文本内容")
                .clickType(1).activity("com.example.chat.ChatActivity")
                .parameters(JSONObject.parseObject("{\"conversation\":\"42\",\"n\":1}"))
                .offLine(true).validTime(12)
                .suspend(true).clearNoticeBar(true).vibrate(true).lights(true).sound(true)
                .extra("callback", "http://127.0.0.1:9/push/receipt/vendor_e").extra("callback.param", "42")
                .extra("callback.type", "1")
                .build();
        ResultPack<PushResult> result = new IFlymePush(APP_SECRET).pushMessage(message,
                List.of("pid-sdk-1", "invalid-sdk", "switched-off-sdk", "pid-sdk-2"));

        assertTrue(result.isSucceed(), result.code() + " " + result.comment());
        Map<String, List<String>> failed = result.value().getRespTarget();
        assertEquals(List.of("invalid-sdk"), failed.get("110003"));
        assertEquals(List.of("switched-off-sdk"), failed.get("110010"));
        assertEquals(2, failed.size());
        assertFalse(result.value().getMsgId().isEmpty());
        assertEquals(1, simulator.recorder().deliveriesTo("pid-sdk-1"));
        assertEquals(1, simulator.recorder().deliveriesTo("pid-sdk-2"));

        Recorder.Request request = theOnlyRequest(MeizuAdapter.NOTIFICATION_PATH);
        assertTrue(request.headers().containsKey("f-push-sdk-version"), "sent by the SDK: " + request.headers());
        assertEquals(MEIZU_HOST, request.headers().get("host"));
    }

    @Test
    void passThroughOfTheSdkIsAccepted() throws Exception {
        UnVarnishedMessage message = new UnVarnishedMessage.Builder().appId(APP_ID)
                .title("sync").content("{\"op\":\"sync\",\"seq\":7}").validTime(10)
                .build();
        ResultPack<PushResult> result = new IFlymePush(APP_SECRET).pushMessage(message, List.of("pid-sdk-3"));

        assertTrue(result.isSucceed(), result.code() + " " + result.comment());
        assertTrue(result.value().getRespTarget().isEmpty(), String.valueOf(result.value().getRespTarget()));
        assertEquals(1, simulator.recorder().deliveriesTo("pid-sdk-3"));
        theOnlyRequest(MeizuAdapter.PASS_THROUGH_PATH);
    }

    @Test
    void aWrongSecretIsRefusedWithMeizusCode() throws Exception {
        VarnishedMessage message = new VarnishedMessage.Builder().appId(APP_ID).title("t").content("c").build();
        ResultPack<PushResult> result = new IFlymePush("not-the-secret").pushMessage(message, List.of("pid-sdk-4"));

        assertFalse(result.isSucceed());
        assertEquals("1006", result.code());
        assertEquals(0, simulator.recorder().deliveries());
    }

    @Test
    void moreThanAHundredPushIdsAreRefused() throws Exception {
        VarnishedMessage message = new VarnishedMessage.Builder().appId(APP_ID).title("t").content("c").build();
        List<String> pushIds = IntStream.range(0, 101).mapToObj(i -> "pid-many-" + i).toList();
        ResultPack<PushResult> result = new IFlymePush(APP_SECRET).pushMessage(message, pushIds);

        assertEquals("1005", result.code(), result.comment());
        assertEquals(0, simulator.recorder().deliveries());
        ResultPack<PushResult> hundred = new IFlymePush(APP_SECRET).pushMessage(message, pushIds.subList(0, 100));
        assertTrue(hundred.isSucceed(), hundred.code() + " " + hundred.comment());
        assertEquals(100, simulator.recorder().deliveries());
    }

    private static Recorder.Request theOnlyRequest(String path) {
        List<Recorder.Request> requests = AdapterTestSupport.recorded(simulator, path::equals);
        assertEquals(1, requests.size());
        return requests.get(0);
    }
}

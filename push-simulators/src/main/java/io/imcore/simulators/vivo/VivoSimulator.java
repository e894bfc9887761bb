package io.imcore.simulators.vivo;

import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The vivo push server API (docs/channels/vivo.md): {@code /message/auth} issues authTokens (24 h),
 * {@code /message/saveListPayload} + {@code /message/pushToList} and {@code /message/send} need one in the
 * {@code authToken} header. Apps registered with {@code POST /_sim/apps} (or {@link #registerApp}) get their auth sign
 * and appKey checked; others only need a well-formed sign. The message fields are checked by {@link VivoMessageRules}.
 * Delivery receipts are posted in vivo's callback format, batched every {@value #RECEIPT_FLUSH_MILLIS} ms. Test hook
 * besides /_sim: {@link #answerNextPush} (quota and other answers the simulator has no rule for).
 */
public class VivoSimulator extends ProviderSimulator {

    static final long TOKEN_LIFETIME_MILLIS = 24L * 3600 * 1000;
    static final long TIMESTAMP_WINDOW_MILLIS = 10L * 60 * 1000;
    static final long RECEIPT_FLUSH_MILLIS = 100;
    static final int RECEIPT_TARGETS_PER_CALLBACK = 1000;

    private record App(String appKey, String appSecret) {}

    private record Token(String appId, long expiresAt) {}

    static final int PARAMETER_INVALID = VivoMessageRules.PARAMETER_INVALID;
    /** The simulator's codes (vivo's own for these were not in the copies of the doc read). */
    static final int REGID_INVALID = 10302;
    static final int TASK_ID_INVALID = 10303;
    /** A regId starting with this is answered 10302 (malformed); other {@link Faults#INVALID_PREFIX} ones invalidUser. */
    public static final String MALFORMED_REGID_PREFIX = "invalid-regid";

    /** What saveListPayload stored for pushToList; {@code text} the message as sent (its data names the chat message). */
    private record Payload(String appId, String callback, String callbackId, String param, int pushMode,
            String text) {}

    private record PendingReceipt(String taskId, String param, String regId) {}

    private final Map<String, App> apps = new ConcurrentHashMap<>();
    private final Map<String, Token> tokens = new ConcurrentHashMap<>();
    private final Map<String, Payload> payloads = new ConcurrentHashMap<>();
    private final AtomicLong taskIds = new AtomicLong(600_000_000L);
    private final Map<String, Queue<PendingReceipt>> pendingReceipts = new ConcurrentHashMap<>();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final Queue<JsonObject> nextAnswers = new ConcurrentLinkedQueue<>();

    @Override
    public String channel() {
        return "vendor_d";
    }

    /** Registers an app: its auth requests must then carry its appKey and a sign made with its appSecret. */
    public void registerApp(String appId, String appKey, String appSecret) {
        apps.put(appId, new App(appKey, appSecret));
    }

    /** From {@code POST /_sim/apps}: vivo has no certificate field. */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) {
        registerApp(appId, appKey, appSecret);
    }

    @Override
    public void reset() {
        super.reset();
        apps.clear();
        tokens.clear();
        payloads.clear();
        pendingReceipts.clear();
        nextAnswers.clear();
    }

    @Override
    protected void routes(Router router) {
        router.post("/message/auth").handler(this::auth);
        router.post("/message/saveListPayload").handler(this::saveListPayload);
        router.post("/message/pushToList").handler(this::pushToList);
        router.post("/message/send").handler(this::send);
    }

    // ---- auth ----

    private void auth(RoutingContext ctx) {
        JsonObject body = jsonBody(ctx);
        if (body == null) {
            answer(ctx, PARAMETER_INVALID, "请求体不合法");
            return;
        }
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.TRANSIENT) {
            serverError(ctx);
            return;
        }
        if (fault == Faults.Kind.QUOTA_SPENT) {
            faults().inject(Faults.Kind.QUOTA_SPENT, 1); // the auth call has no quota: the fault is for the next push
        }
        // doc 1.1 推送鉴权接口 (and the SDK's Sender.getToken): appId, appKey, timestamp (ms, within ten minutes of
        // vivo's clock), sign = md5(appId + appKey + timestamp + appSecret) in lower-case hex; 业务异常码 10200 appId
        // 不能为空, 10201 appKey 不能为空, ... (10202-10207: the simulator's reading of the rest of that table)
        String appId = text(body.getValue("appId"));
        String appKey = body.getString("appKey");
        Object timestampValue = body.getValue("timestamp");
        String sign = body.getString("sign");
        if (appId == null) {
            answer(ctx, 10200, "appId 不能为空");
            return;
        }
        if (appKey == null || appKey.isEmpty()) {
            answer(ctx, 10201, "appKey 不能为空");
            return;
        }
        if (!(timestampValue instanceof Number timestamp)) {
            answer(ctx, 10203, "timestamp 不能为空");
            return;
        }
        if (sign == null || sign.isEmpty()) {
            answer(ctx, 10204, "sign 不能为空");
            return;
        }
        if (Math.abs(System.currentTimeMillis() - timestamp.longValue()) > TIMESTAMP_WINDOW_MILLIS) {
            answer(ctx, 10207, "timestamp 不合法");
            return;
        }
        if (fault == Faults.Kind.AUTH) {
            answer(ctx, 10206, "sign 不合法");
            return;
        }
        App app = apps.get(appId);
        if (app != null) {
            if (!app.appKey().equals(appKey)) {
                answer(ctx, 10202, "appKey 不合法");
                return;
            }
            if (!md5(appId + appKey + timestamp.longValue() + app.appSecret()).equals(sign)) {
                answer(ctx, 10206, "sign 不合法");
                return;
            }
        } else if (!sign.matches("[0-9a-f]{32}")) {
            answer(ctx, 10206, "sign 不合法");
            return;
        }
        String token = UUID.randomUUID().toString().replace("-", "") + Long.toHexString(System.nanoTime());
        tokens.put(token, new Token(appId, System.currentTimeMillis() + TOKEN_LIFETIME_MILLIS));
        reply(ctx, 200, new JsonObject().put("result", 0).put("desc", "请求成功").put("authToken", token));
    }

    /** The app of a valid authToken header, or null after answering the error. */
    private String authorized(RoutingContext ctx, JsonObject body) {
        if (body == null) {
            answer(ctx, PARAMETER_INVALID, "请求体不合法");
            return null;
        }
        String header = ctx.request().getHeader("authToken");
        Token token = header == null ? null : tokens.get(header);
        if (token == null || token.expiresAt() < System.currentTimeMillis()) {
            answer(ctx, 10000, "authToken 不合法");
            return null;
        }
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.TRANSIENT) {
            serverError(ctx);
            return null;
        }
        if (fault == Faults.Kind.AUTH) {
            tokens.remove(header); // revoked: the client must authenticate again
            answer(ctx, 10000, "authToken 不合法");
            return null;
        }
        if (fault == Faults.Kind.QUOTA_SPENT) {
            // doc 一.1 推送超量说明: "10070:发送总量超出限制", do not call send, saveListPayload or pushToList that day
            answer(ctx, 10070, "发送总量超出限制");
            return null;
        }
        // doc 2.9.2 修改记录: every request body carries appId, compared with the token's (10094)
        String appId = text(body.getValue("appId"));
        if (appId != null && !appId.equals(token.appId())) {
            answer(ctx, 10094, "appId 与鉴权信息不一致");
            return null;
        }
        return token.appId();
    }

    // ---- push ----

    /**
     * The next push call (send, saveListPayload or pushToList) answers {@code result} with {@code desc} instead of
     * doing its work: vivo's quota answers (10070, 10252), rate limits and refusals the simulator has no rule for.
     */
    public void answerNextPush(int result, String desc) {
        answerNextPush(new JsonObject().put("result", result).put("desc", desc));
    }

    /** The next push call answers {@code answer} as it is (e.g. a single send's invalidUser). */
    public void answerNextPush(JsonObject answer) {
        nextAnswers.add(answer);
    }

    /** True after answering an injected result (see {@link #answerNextPush}). */
    private boolean answeredAsInjected(RoutingContext ctx) {
        JsonObject injected = nextAnswers.poll();
        if (injected == null) {
            return false;
        }
        reply(ctx, 200, injected);
        return true;
    }

    /** Checks the notification fields of send and saveListPayload; answers the error and returns false when one is wrong. */
    private boolean validMessage(RoutingContext ctx, JsonObject body) {
        VivoMessageRules.Refusal refusal = VivoMessageRules.refusal(body);
        if (refusal == null) {
            return true;
        }
        answer(ctx, refusal.result(), refusal.desc());
        return false;
    }

    private void saveListPayload(RoutingContext ctx) {
        JsonObject body = jsonBody(ctx);
        String appId = authorized(ctx, body);
        if (appId == null || answeredAsInjected(ctx) || !validMessage(ctx, body)) {
            return;
        }
        String taskId = Long.toString(taskIds.incrementAndGet());
        payloads.put(taskId, payload(appId, body));
        reply(ctx, 200, new JsonObject().put("result", 0).put("desc", "请求成功").put("taskId", taskId));
    }

    private void pushToList(RoutingContext ctx) {
        JsonObject body = jsonBody(ctx);
        String appId = authorized(ctx, body);
        if (appId == null || answeredAsInjected(ctx)) {
            return;
        }
        // doc "批量推送用户接口": regIds 2..1000 (the SDK's TargetMessage: regIds, aliases, taskId, requestId)
        Object regIdsValue = body.getValue("regIds");
        if (!(regIdsValue instanceof JsonArray regIds) || regIds.size() < 2 || regIds.size() > 1000) {
            answer(ctx, PARAMETER_INVALID, "regIds 个数须在2到1000之间");
            return;
        }
        String taskId = text(body.getValue("taskId"));
        Payload payload = taskId == null ? null : payloads.get(taskId);
        if (payload == null || !payload.appId().equals(appId)) {
            answer(ctx, TASK_ID_INVALID, "taskId 不合法");
            return;
        }
        String requestId = body.getString("requestId");
        if (requestId == null || requestId.isEmpty() || requestId.length() > VivoMessageRules.REQUEST_ID_MAX) {
            answer(ctx, PARAMETER_INVALID, "requestId 不合法");
            return;
        }
        JsonArray invalid = new JsonArray();
        List<String> accepted = new ArrayList<>(regIds.size());
        for (Object value : regIds) {
            String regId = String.valueOf(value);
            if (Faults.isInvalid(regId)) {
                invalid.add(new JsonObject().put("status", 1).put("userid", regId));
            } else {
                recorder().delivered(regId, payload.text());
                accepted.add(regId);
            }
        }
        receipts(payload, taskId, accepted);
        JsonObject answer = new JsonObject().put("result", 0).put("desc", "请求成功").put("requestId", requestId);
        if (!invalid.isEmpty()) {
            answer.put("invalidUsers", invalid);
        }
        reply(ctx, 200, answer);
    }

    private void send(RoutingContext ctx) {
        JsonObject body = jsonBody(ctx);
        String appId = authorized(ctx, body);
        if (appId == null || answeredAsInjected(ctx) || !validMessage(ctx, body)) {
            return;
        }
        String regId = body.getString("regId");
        if ((regId == null || regId.isEmpty()) && (body.getString("alias") == null)) {
            answer(ctx, 10050, "alias和regId 不能都为空");
            return;
        }
        if (regId != null && regId.startsWith(MALFORMED_REGID_PREFIX)) {
            answer(ctx, REGID_INVALID, "regId 不合法");
            return;
        }
        String taskId = Long.toString(taskIds.incrementAndGet());
        JsonObject answer = new JsonObject().put("result", 0).put("desc", "请求成功").put("taskId", taskId);
        if (Faults.isInvalid(regId)) {
            // the SDK's Result.invalidUser: {userid, status}, status 1 = the regId does not exist
            reply(ctx, 200, answer.put("invalidUser", new JsonObject().put("userid", regId).put("status", 1)));
            return;
        }
        Payload payload = payload(appId, body);
        recorder().delivered(regId, payload.text());
        receipts(payload, taskId, List.of(regId));
        reply(ctx, 200, answer);
    }

    private static Payload payload(String appId, JsonObject body) {
        JsonObject extra = body.getValue("extra") instanceof JsonObject o ? o : null;
        Integer pushMode = intOrNull(body.getValue("pushMode"));
        return new Payload(appId, extra == null ? null : extra.getString("callback"),
                extra == null ? null : extra.getString("callback.id"),
                extra == null ? null : extra.getString("callback.param"), pushMode == null ? 0 : pushMode,
                body.encode());
    }

    // ---- receipts ----

    /**
     * Queues delivery receipts, posted by the next flush: for formal messages (pushMode 0) whose extra carries a
     * receipt id ({@code callback.id}, the SDK's Message.Builder.extraV2) besides the URL. Real vivo posts to the URL
     * registered with that id in its console; the simulator posts to the message's {@code callback}.
     */
    private void receipts(Payload payload, String taskId, List<String> regIds) {
        if (payload.callback() == null || payload.callback().isEmpty() || payload.callbackId() == null
                || payload.callbackId().isEmpty() || payload.pushMode() != 0 || regIds.isEmpty()) {
            return;
        }
        Queue<PendingReceipt> queue = pendingReceipts.computeIfAbsent(payload.callback(),
                u -> new ConcurrentLinkedQueue<>());
        for (String regId : regIds) {
            queue.add(new PendingReceipt(taskId, payload.param(), regId));
        }
        if (flushScheduled.compareAndSet(false, true)) {
            vertx().setTimer(RECEIPT_FLUSH_MILLIS, id -> flushReceipts());
        }
    }

    /**
     * vivo's receipt: a JSON object keyed by vivo taskId, each {@code {"param": callback.param, "targets": "regId1,
     * regId2"}}.
     */
    private void flushReceipts() {
        flushScheduled.set(false);
        for (Map.Entry<String, Queue<PendingReceipt>> entry : pendingReceipts.entrySet()) {
            Queue<PendingReceipt> queue = entry.getValue();
            while (!queue.isEmpty()) {
                Map<String, JsonObject> byTask = new LinkedHashMap<>();
                Map<String, StringBuilder> targets = new LinkedHashMap<>();
                PendingReceipt receipt;
                int count = 0;
                while (count < RECEIPT_TARGETS_PER_CALLBACK && (receipt = queue.poll()) != null) {
                    PendingReceipt r = receipt;
                    byTask.computeIfAbsent(r.taskId(), t -> new JsonObject().put("param", r.param() == null ? "" : r.param()));
                    StringBuilder list = targets.computeIfAbsent(r.taskId(), t -> new StringBuilder());
                    if (list.length() > 0) {
                        list.append(',');
                    }
                    list.append(r.regId());
                    count++;
                }
                if (count == 0) {
                    break;
                }
                JsonObject body = new JsonObject();
                byTask.forEach((taskId, item) -> body.put(taskId, item.put("targets", targets.get(taskId).toString())));
                postCallback(entry.getKey(), "application/json", body.encode());
            }
        }
    }

    // ---- helpers ----

    private static JsonObject jsonBody(RoutingContext ctx) {
        try {
            return ctx.body() == null || ctx.body().buffer() == null ? null : ctx.body().asJsonObject();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void answer(RoutingContext ctx, int result, String desc) {
        reply(ctx, 200, new JsonObject().put("result", result).put("desc", desc));
    }

    private void serverError(RoutingContext ctx) {
        later(() -> ctx.response().setStatusCode(500).end("Internet server error!"));
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        String text = String.valueOf(value);
        return text.isEmpty() ? null : text;
    }

    private static Integer intOrNull(Object value) {
        return value instanceof Number n ? n.intValue() : null;
    }

    static String md5(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

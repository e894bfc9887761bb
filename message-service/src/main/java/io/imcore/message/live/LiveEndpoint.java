package io.imcore.message.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.context.TokenAuthenticator;
import io.imcore.common.security.TokenClaims;
import io.imcore.message.MessageConfig;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationService;
import io.imcore.message.conversation.ConversationService.AckTarget;
import io.imcore.message.grouplimits.GroupLimitsConfig;
import io.imcore.message.grouplimits.GroupLimitsService;
import io.imcore.message.presence.PresenceService;
import io.imcore.message.sync.SyncCursor;
import io.imcore.message.sync.SyncEvent;
import io.imcore.message.sync.SyncService;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * The devices' live connection, {@code GET /ws} upgraded to a WebSocket; JSON text frames as documented in
 * docs/live-protocol.md. The first frame must be {@code auth} (user token and device_sn) within
 * {@code im.message.live-auth-timeout}, optionally with a cursor of the user's change log, whose later changes are
 * replayed first (docs/live-protocol.md "Replay"); then the server sends {@code message} frames and the device answers
 * with {@code ack} (DELIVERED) and {@code ping}; svcpush {@code notification} frames are answered with
 * {@code notification_ack} ({@link LivePush}); a {@code typing} frame goes to the conversation's other members
 * ({@link LiveFrames}). Database work runs on worker threads, never the event loop.
 */
@ApplicationScoped
public class LiveEndpoint {

    private static final Logger LOG = Logger.getLogger(LiveEndpoint.class);
    private static final short CLOSE_POLICY = 1008;
    private static final short CLOSE_AUTH_FAILED = 4401;
    /** The token died after the connection was authenticated: expired, revoked, or its user disabled. */
    static final short CLOSE_CREDENTIALS_DIED = 4403;
    private static final short CLOSE_REPLAY_FAILED = 1011;

    private final Vertx vertx;
    private final TokenAuthenticator authenticator;
    private final PresenceService presence;
    private final ConversationService conversations;
    private final LiveConnections connections;
    private final LivePush pushes;
    private final SyncService sync;
    private final ObjectMapper mapper;
    private final MessageConfig config;
    private final LiveFrames frames;
    private final GroupLimitsService groupLimits;
    private final GroupLimitsConfig groupConfig;

    public LiveEndpoint(Vertx vertx, TokenAuthenticator authenticator, PresenceService presence,
            ConversationService conversations, LiveConnections connections, LivePush pushes, SyncService sync,
            ObjectMapper mapper, MessageConfig config, LiveFrames frames, GroupLimitsService groupLimits,
            GroupLimitsConfig groupConfig) {
        this.sync = sync;
        this.frames = frames;
        this.groupLimits = groupLimits;
        this.groupConfig = groupConfig;
        this.vertx = vertx;
        this.authenticator = authenticator;
        this.presence = presence;
        this.conversations = conversations;
        this.connections = connections;
        this.pushes = pushes;
        this.mapper = mapper;
        this.config = config;
    }

    void install(@Observes Router router) {
        router.get("/ws").handler(ctx -> ctx.request().toWebSocket()
                .onSuccess(this::open)
                .onFailure(e -> {
                    if (!ctx.response().ended()) {
                        ctx.response().setStatusCode(400).end("WebSocket upgrade required");
                    }
                }));
    }

    private void open(ServerWebSocket socket) {
        AtomicReference<LiveSession> session = new AtomicReference<>();
        // set by the first auth frame: another one, even while the first is being checked, is refused, so one
        // socket never holds two sessions (closing the socket would remove only one of them)
        AtomicBoolean authReceived = new AtomicBoolean();
        long authTimer = vertx.setTimer(config.liveAuthTimeout().toMillis(), t -> {
            if (session.get() == null) {
                socket.close(CLOSE_AUTH_FAILED, "auth frame expected");
            }
        });
        socket.textMessageHandler(text -> {
            JsonNode frame;
            try {
                frame = mapper.readTree(text);
            } catch (Exception e) {
                reply(socket, error("error", ErrorCode.BAD_PARAMETER, "frame: not JSON"));
                return;
            }
            String type = frame.path("type").asText("");
            LiveSession current = session.get();
            if (current != null) {
                current.lastSeenMs = System.currentTimeMillis();
            }
            switch (type) {
                case "ping" -> reply(socket, Map.of("type", "pong", "at", System.currentTimeMillis()));
                case "auth" -> {
                    if (authReceived.getAndSet(true)) {
                        reply(socket, error("auth", ErrorCode.BAD_PARAMETER,
                                "auth: only the first auth frame of a connection counts"));
                    } else {
                        authenticate(socket, frame, session, authTimer);
                    }
                }
                case "ack" -> {
                    if (current == null) {
                        socket.close(CLOSE_AUTH_FAILED, "auth frame expected");
                    } else {
                        acknowledge(current, frame);
                    }
                }
                case "notification_ack" -> {
                    if (current == null) {
                        socket.close(CLOSE_AUTH_FAILED, "auth frame expected");
                    } else {
                        acknowledgeNotification(current, frame);
                    }
                }
                case "typing" -> {
                    if (current == null) {
                        socket.close(CLOSE_AUTH_FAILED, "auth frame expected");
                    } else {
                        typing(current, frame);
                    }
                }
                default -> reply(socket, error("error", ErrorCode.BAD_PARAMETER,
                        "type: auth, ack, notification_ack, typing or ping"));
            }
        });
        socket.binaryMessageHandler(b -> socket.close(CLOSE_POLICY, "text frames only"));
        socket.closeHandler(v -> {
            vertx.cancelTimer(authTimer);
            LiveSession closed = session.getAndSet(null);
            if (closed != null) {
                vertx.cancelTimer(closed.expiryTimer);
                connections.remove(closed);
                clearPresence(closed);
            }
        });
    }

    private void authenticate(ServerWebSocket socket, JsonNode frame, AtomicReference<LiveSession> session,
            long authTimer) {
        // held from before its presence row commits: frames announced from then on are held, not missed
        AtomicReference<LiveSession> registering = new AtomicReference<>();
        AtomicReference<Long> cursor = new AtomicReference<>();
        vertx.executeBlocking(() -> {
            String appId = authenticator.knownApp(text(frame, "app_id"));
            TokenClaims token = authenticator.authenticate(appId, text(frame, "token"));
            if (token.isAdmin()) {
                throw new ApiException(ErrorCode.NO_PERMISSION, "token: a user token is required");
            }
            int deviceSn = deviceSn(frame, token);
            JsonNode given = frame.get("cursor");
            if (given != null && !given.isNull()) {
                if (!given.isTextual()) {
                    throw ApiException.badParameter("cursor", "must be a cursor of /message/sync");
                }
                cursor.set(SyncCursor.decode("cursor", given.asText(), appId, token.userId()).position());
            }
            LiveSession created = new LiveSession(socket, appId, token.userId(), deviceSn,
                    UUID.randomUUID().toString(), token.tokenVersion(), token.expiresAt() * 1000);
            registering.set(created);
            connections.add(created);
            return created;
        }, false).compose(created -> Future.fromCompletionStage(presence.connected(created.appId, created.userId,
                created.deviceSn, created.connectionId), vertx.getOrCreateContext()).map(seq -> {
                    created.connectedSeq = seq;
                    return created;
                })).compose(created -> cursor.get() == null ? Future.succeededFuture((Replay) null)
                        : vertx.executeBlocking(() -> firstReplayPage(created, cursor.get()), false))
                .onComplete(result -> {
            LiveSession created = registering.get();
            if (result.failed()) {
                if (created != null) {
                    connections.remove(created);
                    if (created.connectedSeq != 0) {
                        clearPresence(created);
                    }
                }
                ApiException failure = result.cause() instanceof ApiException api ? api
                        : new ApiException(ErrorCode.UNAVAILABLE);
                reply(socket, error("auth", failure.errorCode(), failure.getMessage()));
                socket.close(CLOSE_AUTH_FAILED, "auth failed");
                return;
            }
            if (socket.isClosed()) {
                connections.remove(created);
                clearPresence(created);
                return;
            }
            vertx.cancelTimer(authTimer);
            created.expiryTimer = vertx.setTimer(Math.max(1, created.expiresAtMs - System.currentTimeMillis()),
                    t -> socket.close(CLOSE_CREDENTIALS_DIED, "token expired"));
            session.set(created);
            Map<String, Object> ok = new LinkedHashMap<>();
            ok.put("type", "auth");
            ok.put("code", ErrorCode.OK.code());
            ok.put("message", null);
            ok.put("user_id", created.userId);
            ok.put("device_sn", created.deviceSn);
            reply(socket, ok);
            Replay replay = result.result();
            if (replay == null) {
                connections.replayed(created, 0);
            } else {
                replay(created, replay);
            }
        });
    }

    /** Where a replay stops, and its first page (read before the auth answer, which says 21003 if it expired). */
    private record Replay(long head, SyncService.Read first) {}

    /**
     * Once the connection's presence row is committed: the head of the user's log when every writer in flight has
     * committed (a writer after it reads the presence row and announces to this connection), and the first page.
     */
    private Replay firstReplayPage(LiveSession session, long after) {
        long head = sync.settledHead(session.appId, session.userId);
        return new Replay(head, sync.read(session.appId, session.userId, after, head, SyncService.DEFAULT_LIMIT,
                true, "cursor"));
    }

    /**
     * Writes the replay's pages, each after the previous one was written out (no unbounded queue), then the frames
     * held meanwhile that came after the replay; a failure closes the connection (1011): the device reconnects.
     */
    private void replay(LiveSession session, Replay replay) {
        vertx.executeBlocking(() -> {
            SyncService.Read page = replay.first();
            while (true) {
                Future<Void> written = Future.succeededFuture();
                for (SyncEvent event : page.events()) {
                    written = session.socket.writeTextMessage(sync.frame(event));
                }
                written.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
                if (!page.hasMore() || page.last() >= replay.head()) {
                    return null;
                }
                page = sync.read(session.appId, session.userId, page.last(), replay.head(), SyncService.DEFAULT_LIMIT,
                        false, "cursor");
            }
        }, false).onComplete(result -> {
            if (result.succeeded()) {
                connections.replayed(session, replay.head());
            } else {
                LOG.warnf("replay of a live connection failed: %s", result.cause().toString());
                session.socket.close(CLOSE_REPLAY_FAILED, "replay failed");
            }
        });
    }

    /** The connection is gone: remove its presence row (and publish device.offline) in the next group commit. */
    private void clearPresence(LiveSession session) {
        presence.disconnected(session.appId, session.userId, session.deviceSn, session.connectionId,
                session.connectedSeq).exceptionally(e -> {
                    LOG.warnf("presence not cleared for a closed connection: %s", e.getMessage());
                    return null;
                });
    }

    /** {"type":"ack","conversation_id":..,"msg_id":..}: the device has the message (DELIVERED). */
    private void acknowledge(LiveSession session, JsonNode frame) {
        long address;
        long msgId;
        try {
            address = positiveOrZero(frame, "conversation_id");
            msgId = positiveOrZero(frame, "msg_id");
            if (msgId == 0) {
                throw ApiException.badParameter("msg_id", "must be a positive integer");
            }
        } catch (ApiException e) {
            reply(session.socket, error("ack", e.errorCode(), e.getMessage()));
            return;
        }
        AckTarget known = session.ackTarget(address);
        Future<AckTarget> target = known != null ? Future.succeededFuture(known)
                : vertx.executeBlocking(() -> conversations.ackTarget(session.appId, session.userId, address), false)
                        .onSuccess(checked -> session.rememberAckTarget(address, checked));
        target.compose(checked -> Future.fromCompletionStage(
                conversations.markDelivered(checked, session.userId, msgId), vertx.getOrCreateContext()))
                .onComplete(result -> {
            if (result.succeeded()) {
                reply(session.socket, Map.of("type", "ack", "code", ErrorCode.OK.code(), "msg_id", msgId));
            } else {
                ApiException failure = result.cause() instanceof ApiException api ? api
                        : new ApiException(ErrorCode.UNAVAILABLE);
                reply(session.socket, error("ack", failure.errorCode(), failure.getMessage()));
            }
        });
    }

    /**
     * {"type":"notification_ack","task_id":..}: the device got the task's svcpush notification on this connection.
     * The first ack publishes one receipt; a repeated one is answered the same and publishes nothing.
     */
    private void acknowledgeNotification(LiveSession session, JsonNode frame) {
        JsonNode given = frame.get("task_id");
        if (given == null || !given.isIntegralNumber() || !given.canConvertToLong() || given.asLong() <= 0) {
            reply(session.socket, error("notification_ack", ErrorCode.BAD_PARAMETER,
                    "task_id: must be a positive integer"));
            return;
        }
        long taskId = given.asLong();
        switch (session.claimAck(taskId)) {
            case NOT_DELIVERED -> reply(session.socket, error("notification_ack", ErrorCode.BAD_PARAMETER,
                    "task_id: no notification of this task was delivered on this connection"));
            case REPEATED -> reply(session.socket, notificationAcked(taskId));
            case FIRST -> vertx.executeBlocking(() -> {
                pushes.publishReceipt(session, taskId);
                return null;
            }, false).onComplete(result -> {
                if (result.succeeded()) {
                    reply(session.socket, notificationAcked(taskId));
                } else {
                    session.releaseAck(taskId);
                    LOG.warnf("svcpush receipt not stored: %s", result.cause().getMessage());
                    reply(session.socket, error("notification_ack", ErrorCode.UNAVAILABLE,
                            ErrorCode.UNAVAILABLE.defaultMessage()));
                }
            });
        }
    }

    /**
     * {"type":"typing","conversation_id":..}: relayed, not stored, to the conversation's other members' devices as
     * {"type":"typing","conversation_id":<as they see it>,"user_id":..}. Only refusals are answered: a second frame
     * within {@code im.message.groups.typing-interval} (10015), a group over the app's typing size (20005), or the
     * errors of a page of the conversation.
     */
    private void typing(LiveSession session, JsonNode frame) {
        long address;
        try {
            address = positiveOrZero(frame, "conversation_id");
        } catch (ApiException e) {
            reply(session.socket, error("typing", e.errorCode(), e.getMessage()));
            return;
        }
        long now = System.currentTimeMillis();
        long interval = groupConfig.typingInterval().toMillis();
        if (now - session.lastTypingMs < interval) {
            reply(session.socket, error("typing", ErrorCode.TOO_MANY_REQUESTS,
                    "typing: one frame per " + interval + " ms per device"));
            return;
        }
        session.lastTypingMs = now;
        Map<String, Object> relayed = new LinkedHashMap<>();
        relayed.put("type", "typing");
        relayed.put("conversation_id", ConversationKind.isGroupId(address) ? address : session.userId);
        relayed.put("user_id", session.userId);
        vertx.executeBlocking(() -> {
            frames.send(session.appId, conversations.typingRecipients(session.appId, session.userId, address,
                    groupLimits.of(session.appId).typingMaxMembers()), relayed);
            return null;
        }, false).onFailure(e -> {
            ApiException failure = e instanceof ApiException api ? api : new ApiException(ErrorCode.UNAVAILABLE);
            reply(session.socket, error("typing", failure.errorCode(), failure.getMessage()));
        });
    }

    private static Map<String, Object> notificationAcked(long taskId) {
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("type", "notification_ack");
        frame.put("code", ErrorCode.OK.code());
        frame.put("task_id", taskId);
        return frame;
    }

    /** Closes connections that stayed silent (no frame, not even ping) longer than the idle timeout. */
    @Scheduled(every = "15s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void closeIdle() {
        long cutoff = System.currentTimeMillis() - config.liveIdleTimeout().toMillis();
        for (LiveSession session : connections.all()) {
            if (session.lastSeenMs < cutoff) {
                session.socket.close(CLOSE_POLICY, "idle");
            }
        }
    }

    /** Closing the sockets tells the devices to reconnect, to another replica. */
    void stop(@Observes ShutdownEvent event) {
        for (LiveSession session : connections.all()) {
            session.socket.close((short) 1001, "server shutting down");
        }
    }

    private static int deviceSn(JsonNode frame, TokenClaims token) {
        JsonNode given = frame.get("device_sn");
        Integer fromToken = token.deviceSn();
        if (given == null || given.isNull()) {
            if (fromToken == null) {
                throw ApiException.badParameter("device_sn", "required (the token names no device)");
            }
            return fromToken;
        }
        if (!given.canConvertToInt() || !given.isIntegralNumber() || given.asInt() < 0) {
            throw ApiException.badParameter("device_sn", "must be a non-negative integer");
        }
        if (fromToken != null && fromToken != given.asInt()) {
            throw ApiException.badParameter("device_sn", "differs from the token's device");
        }
        return given.asInt();
    }

    private static String text(JsonNode frame, String field) {
        JsonNode value = frame.get(field);
        return value == null || !value.isTextual() ? null : value.asText();
    }

    private static long positiveOrZero(JsonNode frame, String field) {
        JsonNode value = frame.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw ApiException.badParameter(field, "must be a non-negative integer");
        }
        return value.asLong();
    }

    private static Map<String, Object> error(String type, ErrorCode code, String message) {
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("type", type);
        frame.put("code", code.code());
        frame.put("message", message);
        return frame;
    }

    private void reply(ServerWebSocket socket, Map<String, Object> frame) {
        try {
            if (!socket.isClosed()) {
                socket.writeTextMessage(mapper.writeValueAsString(frame));
            }
        } catch (Exception e) {
            LOG.warnf("could not write a frame: %s", e.getMessage());
        }
    }
}

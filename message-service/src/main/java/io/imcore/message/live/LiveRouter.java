package io.imcore.message.live;

import io.agroal.api.AgroalDataSource;
import io.imcore.message.conversation.PlacedMessage;
import io.imcore.message.conversation.PlacedMessage.Online;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Tells the replicas that hold a recipient's live connection about new messages, after the commit that stored them
 * (docs/live-protocol.md "Across replicas"). Callers hand over what a commit placed and go on; one thread takes
 * whatever has been handed over since its last round and sends it as one NOTIFY per replica (more for very large
 * fan-outs), all in one auto-committed statement on a connection of its own. A NOTIFY in the send's transaction made
 * every such commit wait for PostgreSQL's one notification lock; now one commit of NOTIFYs serves many sends. The
 * payload names messages and users, never content (NOTIFY payloads stay under 8000 bytes); the replica loads the rows
 * ({@link LiveListener}). svcpush notifications travel the same way ({@link LivePush}).
 */
@ApplicationScoped
public class LiveRouter {

    private static final Logger LOG = Logger.getLogger(LiveRouter.class);
    /** Keeps a NOTIFY payload well under PostgreSQL's 8000-byte limit. */
    private static final int MAX_PAYLOAD_CHARS = 7000;
    /** Commits announced in one statement at most. */
    private static final int MAX_COMMITS_PER_ROUND = 512;

    /**
     * What one commit placed for one app, and the frame its recipients get: {@link LiveFrame#MESSAGE} for new
     * messages, or the change a recall or an edit made to a stored one.
     */
    record Committed(String appId, List<PlacedMessage> placed, LiveFrame frame) {

        Committed(String appId, List<PlacedMessage> placed) {
            this(appId, placed, LiveFrame.MESSAGE);
        }
    }

    /** One announced message and the frame its recipients get. */
    private record Announced(long conversationId, long msgId, LiveFrame frame) {}

    /** One NOTIFY: a replica's channel and its payload. */
    record Notice(String channel, String payload) {}

    private final AgroalDataSource dataSource;
    private final BlockingQueue<Committed> committed = new LinkedBlockingQueue<>();
    private final DistributionSummary roundSizes;
    private final Counter lost;
    private volatile boolean running;
    private Thread sender;

    public LiveRouter(AgroalDataSource dataSource, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.roundSizes = DistributionSummary.builder("imcore.live.notify.round")
                .description("commits announced to the replicas by one NOTIFY statement").register(registry);
        this.lost = Counter.builder("imcore.live.notify.lost")
                .description("commits whose NOTIFY could not be sent (their frames are not written)")
                .register(registry);
    }

    public static String channel(String replicaId) {
        return "live_" + replicaId;
    }

    void start(@Observes StartupEvent event) {
        running = true;
        sender = new Thread(this::sendLoop, "live-announce");
        sender.setDaemon(true);
        sender.start();
    }

    /** After the other shutdown observers (the send committers' last commits are announced). */
    void stop(@Observes @Priority(Interceptor.Priority.APPLICATION + 1000) ShutdownEvent event)
            throws InterruptedException {
        running = false;
        if (sender != null) {
            sender.join(3_000);
        }
    }

    /**
     * Announces each placed message to the replicas holding its recipients' connections. Call it only after the
     * transaction that stored them has committed, in commit order for one conversation: the NOTIFYs go out in the
     * order of these calls. Does not block.
     */
    public void announce(String appId, List<PlacedMessage> placed) {
        if (placed.stream().anyMatch(message -> !message.online().isEmpty())) {
            committed.add(new Committed(appId, placed));
        }
    }

    /**
     * Announces a recall or an edit of a stored message to the replicas holding the members' connections
     * ({@code online}), after the commit that made it, like {@link #announce}. Does not block.
     */
    public void announceChange(String appId, LiveFrame frame, long conversationId, long msgId,
            List<PlacedMessage.Online> online) {
        if (!online.isEmpty()) {
            committed.add(new Committed(appId, List.of(new PlacedMessage(conversationId, 0, 0, 0, msgId, false,
                    online)), frame));
        }
    }

    private void sendLoop() {
        List<Committed> round = new ArrayList<>();
        Connection connection = null;
        while (running || !committed.isEmpty()) {
            try {
                Committed first = committed.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                round.add(first);
                committed.drainTo(round, MAX_COMMITS_PER_ROUND - 1);
                connection = send(connection, notices(round), round.size());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) { // never lose the thread
                LOG.errorf(e, "live announcement of %d commits failed", round.size());
                lost.increment(round.size());
            } finally {
                round.clear();
            }
        }
        close(connection);
    }

    /**
     * Sends the notices in one auto-committed statement, on {@code connection} or a new one; once more on a new
     * connection when that fails (a connection broken while idle). Returns the connection to use next time.
     */
    private Connection send(Connection connection, List<Notice> notices, int commits) {
        for (int attempt = 1; ; attempt++) {
            try {
                if (connection == null) {
                    connection = dataSource.getConnection();
                    connection.setAutoCommit(true);
                }
                notify(connection, notices);
                roundSizes.record(commits);
                return connection;
            } catch (SQLException e) {
                close(connection);
                connection = null;
                if (attempt == 2) {
                    LOG.warnf("live announcement of %d commits lost: %s", commits, e.getMessage());
                    lost.increment(commits);
                    return null;
                }
            }
        }
    }

    private static void notify(Connection c, List<Notice> notices) throws SQLException {
        String[] channels = new String[notices.size()];
        String[] payloads = new String[notices.size()];
        for (int i = 0; i < notices.size(); i++) {
            channels[i] = notices.get(i).channel();
            payloads[i] = notices.get(i).payload();
        }
        // unnest yields the array's order, and one transaction's notifications are delivered in the order sent
        try (PreparedStatement ps = c.prepareStatement(
                "select pg_notify(t.channel, t.payload) from unnest(?::text[], ?::text[]) as t(channel, payload)")) {
            ps.setArray(1, c.createArrayOf("text", channels));
            ps.setArray(2, c.createArrayOf("text", payloads));
            ps.executeQuery().close();
        }
    }

    private static void close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debugf("closing the live announcement connection: %s", e.getMessage());
            }
        }
    }

    /**
     * The NOTIFYs of several commits, in their order: per replica and app, one payload
     * {@code {"a":app,"d":[[conversation_id,msg_id,[user_id,...]],...]}} with every message of the commits that has
     * a recipient connected there (more payloads when it would pass {@value #MAX_PAYLOAD_CHARS} characters); an
     * entry of a recall or an edit has the frame's type fourth: {@code [conversation_id,msg_id,[...],"recall"]}.
     */
    static List<Notice> notices(List<Committed> commits) {
        Map<String, Map<String, Map<Announced, Set<Long>>>> routes = new LinkedHashMap<>(); // replica, app
        for (Committed commit : commits) {
            for (PlacedMessage message : commit.placed()) {
                Announced announced = new Announced(message.conversationId(), message.msgId(), commit.frame());
                for (Online device : message.online()) {
                    routes.computeIfAbsent(device.replicaId(), r -> new LinkedHashMap<>())
                            .computeIfAbsent(commit.appId(), a -> new LinkedHashMap<>())
                            .computeIfAbsent(announced, m -> new LinkedHashSet<>()).add(device.userId());
                }
            }
        }
        List<Notice> notices = new ArrayList<>();
        for (Map.Entry<String, Map<String, Map<Announced, Set<Long>>>> replica : routes.entrySet()) {
            String channel = channel(replica.getKey());
            for (Map.Entry<String, Map<Announced, Set<Long>>> app : replica.getValue().entrySet()) {
                String prefix = "{\"a\":" + quote(app.getKey()) + ",\"d\":[";
                StringBuilder payload = new StringBuilder(prefix);
                boolean empty = true;
                for (Map.Entry<Announced, Set<Long>> message : app.getValue().entrySet()) {
                    LiveFrame frame = message.getKey().frame();
                    String tail = frame == LiveFrame.MESSAGE ? "]]" : "],\"" + frame.type + "\"]";
                    String head = "[" + message.getKey().conversationId() + "," + message.getKey().msgId() + ",[";
                    StringBuilder users = new StringBuilder();
                    for (long user : message.getValue()) {
                        String id = String.valueOf(user);
                        if (payload.length() + head.length() + users.length() + id.length() + tail.length() + 6
                                > MAX_PAYLOAD_CHARS) {
                            if (!users.isEmpty()) {
                                payload.append(empty ? "" : ",").append(head).append(users).append(tail);
                                users.setLength(0);
                            }
                            notices.add(new Notice(channel, payload.append("]}").toString()));
                            payload = new StringBuilder(prefix);
                            empty = true;
                        }
                        users.append(users.isEmpty() ? "" : ",").append(id);
                    }
                    payload.append(empty ? "" : ",").append(head).append(users).append(tail);
                    empty = false;
                }
                notices.add(new Notice(channel, payload.append("]}").toString()));
            }
        }
        return notices;
    }

    /** One NOTIFY of a stored svcpush notification: its channel and its payload after the row id. */
    record NotificationPayload(String channel, String tail) {}

    /**
     * The NOTIFY payloads telling each replica which of its devices get a stored notification:
     * {@code {"n":<row id>,"t":[[user_id,device_sn,badge or null],...]}}, one per replica unless too long. The row
     * id (at most 20 characters) is added by the statement that stores the row; the tails leave room for it.
     */
    static List<NotificationPayload> notificationPayloads(Map<String, List<LivePush.Target>> byReplica) {
        List<NotificationPayload> payloads = new ArrayList<>();
        for (Map.Entry<String, List<LivePush.Target>> replica : byReplica.entrySet()) {
            StringBuilder tail = new StringBuilder("\"t\":[");
            boolean empty = true;
            for (LivePush.Target target : replica.getValue()) {
                String entry = "[" + target.userId() + "," + target.deviceSn() + "," + target.badge() + "]";
                if (!empty && tail.length() + entry.length() + 32 > MAX_PAYLOAD_CHARS) {
                    payloads.add(new NotificationPayload(channel(replica.getKey()), tail.append("]").toString()));
                    tail = new StringBuilder("\"t\":[");
                    empty = true;
                }
                tail.append(empty ? "" : ",").append(entry);
                empty = false;
            }
            payloads.add(new NotificationPayload(channel(replica.getKey()), tail.append("]").toString()));
        }
        return payloads;
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}

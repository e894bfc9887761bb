package io.imcore.message.live;

import io.agroal.api.AgroalDataSource;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.ChangeLog.Committed;
import io.imcore.message.changelog.ChangeType;
import io.imcore.message.changelog.Logged;
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
import java.util.List;
import java.util.Map;
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
     * Announces each change to the replicas holding its user's connections ({@link ChangeLog#announce}, after the
     * commit that wrote them, in commit order for one user: the NOTIFYs go out in the order of these calls). Does
     * not block.
     */
    void announce(@Observes Committed changes) {
        committed.add(changes);
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
     * {@code {"a":app,"d":[[conversation_id,msg_id,[user_id,...],[position,...]],...],"e":[[user_id,position],...]}}
     * naming every change of the commits with a user connected there: {@code d} the new messages (one entry per
     * message, each recipient with the message's position in their log), {@code e} the other changes, which the
     * replica reads from the log. More payloads when one would pass {@value #MAX_PAYLOAD_CHARS} characters.
     */
    static List<Notice> notices(List<Committed> commits) {
        Map<String, Map<String, Map<String, List<Logged>>>> routes = new LinkedHashMap<>(); // replica, app, item
        for (Committed commit : commits) {
            for (Logged logged : commit.changes()) {
                Change change = logged.change();
                String item = change.type() == ChangeType.MESSAGE
                        ? change.conversationId() + "," + change.msgId() : "e";
                for (String replica : logged.replicas()) {
                    routes.computeIfAbsent(replica, r -> new LinkedHashMap<>())
                            .computeIfAbsent(change.appId(), a -> new LinkedHashMap<>())
                            .computeIfAbsent(item, m -> new ArrayList<>()).add(logged);
                }
            }
        }
        List<Notice> notices = new ArrayList<>();
        for (Map.Entry<String, Map<String, Map<String, List<Logged>>>> replica : routes.entrySet()) {
            String channel = channel(replica.getKey());
            for (Map.Entry<String, Map<String, List<Logged>>> app : replica.getValue().entrySet()) {
                Payload payload = new Payload(channel, "{\"a\":" + quote(app.getKey()), notices);
                for (Map.Entry<String, List<Logged>> item : app.getValue().entrySet()) {
                    if (item.getKey().equals("e")) {
                        for (Logged logged : item.getValue()) {
                            payload.addEvent("[" + logged.change().userId() + "," + logged.position() + "]");
                        }
                    } else {
                        payload.addMessage(item.getKey(), item.getValue());
                    }
                }
                payload.flush();
            }
        }
        return notices;
    }

    /** The payloads of one replica and app being written: a new one starts before one would pass the limit. */
    private static final class Payload {
        private final String channel;
        private final String prefix;
        private final List<Notice> notices;
        private final StringBuilder messages = new StringBuilder();
        private final StringBuilder events = new StringBuilder();

        Payload(String channel, String prefix, List<Notice> notices) {
            this.channel = channel;
            this.prefix = prefix;
            this.notices = notices;
        }

        void addEvent(String entry) {
            makeRoom(entry.length());
            events.append(events.isEmpty() ? "" : ",").append(entry);
        }

        /** One message's recipients, in as many entries as the limit needs. */
        void addMessage(String ids, List<Logged> recipients) {
            StringBuilder users = new StringBuilder();
            StringBuilder positions = new StringBuilder();
            for (Logged logged : recipients) {
                String user = String.valueOf(logged.change().userId());
                String position = String.valueOf(logged.position());
                if (!users.isEmpty() && size() + ids.length() + users.length() + positions.length() + user.length()
                        + position.length() + 16 > MAX_PAYLOAD_CHARS) {
                    appendMessage(ids, users, positions);
                    users.setLength(0);
                    positions.setLength(0);
                }
                users.append(users.isEmpty() ? "" : ",").append(user);
                positions.append(positions.isEmpty() ? "" : ",").append(position);
            }
            appendMessage(ids, users, positions);
        }

        private void appendMessage(String ids, StringBuilder users, StringBuilder positions) {
            String entry = "[" + ids + ",[" + users + "],[" + positions + "]]";
            makeRoom(entry.length());
            messages.append(messages.isEmpty() ? "" : ",").append(entry);
        }

        private int size() {
            return prefix.length() + messages.length() + events.length() + 16;
        }

        private void makeRoom(int length) {
            if (size() + length + 1 > MAX_PAYLOAD_CHARS && !(messages.isEmpty() && events.isEmpty())) {
                flush();
            }
        }

        void flush() {
            StringBuilder payload = new StringBuilder(prefix);
            if (!messages.isEmpty()) {
                payload.append(",\"d\":[").append(messages).append(']');
            }
            if (!events.isEmpty()) {
                payload.append(",\"e\":[").append(events).append(']');
            }
            notices.add(new Notice(channel, payload.append('}').toString()));
            messages.setLength(0);
            events.setLength(0);
        }
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

package io.imcore.message.send;

import io.imcore.message.send.request.SendRequest;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.DatabaseException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.context.Access;
import io.imcore.common.context.CallerChecks;
import io.imcore.common.context.RequestContext;
import io.imcore.common.store.Database;
import io.imcore.message.MessageApi;
import io.imcore.message.MessageChecks;
import io.imcore.message.send.SendCommitter.Outcome;
import io.imcore.message.send.SendPlan.DirectSend;
import io.imcore.message.send.SendPlan.GroupSend;
import io.imcore.message.send.SendService.Operation;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LockWaiters;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Group commit of sends (docs/message-storage.md "Group commit"): many per transaction, each as if sent alone. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class GroupCommitTest {

    @Inject
    Database database;

    @Inject
    SendCommitter committer;

    @Inject
    SendService sending;

    @Inject
    CallerChecks callerChecks;

    @Inject
    DataSource dataSource;

    @Test
    void concurrentSendsShareCommitsAndKeepOrderCountsReadsAndDeduplication() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        List<Long> users = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            users.add(api.newUser());
        }
        double[] before = batchMetric();
        int senders = 24;
        int each = 10;
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        ExecutorService repeats = Executors.newCachedThreadPool();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < senders; t++) {
            // 4 users, 12 directed pairs, 6 conversations: each conversation gets messages from both ends at once
            long from = users.get(t % 4);
            long to = users.get((t % 4 + 1 + t / 4 % 3) % 4);
            int thread = t;
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < each; i++) {
                    Map<String, Object> body = MessageApi.text("t" + thread + "-" + i, List.of(to));
                    if (i == 0) {
                        // every sender's first message twice at once, the same transaction_id: stored once
                        body.put("transaction_id", 1_000 + thread);
                        Future<Integer> repeat = repeats.submit(() -> api.send(from, body).extract().path("code"));
                        assertEquals(200, (int) api.send(from, body).extract().path("code"));
                        assertEquals(200, repeat.get(30, TimeUnit.SECONDS));
                    } else {
                        api.sendText(from, to, "t" + thread + "-" + i);
                    }
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        repeats.shutdown();

        assertEquals(senders * each, MessageChecks.messagesOfApp(database, api), "each message stored once");
        List<long[]> rows = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select m.conversation_id, m.seq, m.msg_id, c.last_seq"
                    + " from messages m join conversations c on c.id = m.conversation_id where c.app_id = ?"
                    + " order by m.conversation_id, m.seq")) {
                ps.setString(1, api.appId);
                List<long[]> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)});
                    }
                }
                return out;
            }
        });
        long conversation = -1;
        long expectedSeq = 0;
        int conversations = 0;
        for (int i = 0; i < rows.size(); i++) {
            long[] row = rows.get(i);
            if (row[0] != conversation) {
                conversation = row[0];
                expectedSeq = 1;
                conversations++;
            } else {
                assertTrue(row[2] > rows.get(i - 1)[2], "msg_id grows with seq in conversation " + conversation);
            }
            assertEquals(expectedSeq++, row[1], "seq without gaps or repeats in conversation " + conversation);
            boolean lastOfConversation = i + 1 == rows.size() || rows.get(i + 1)[0] != conversation;
            if (lastOfConversation) {
                assertEquals(row[1], row[3], "the conversation's last_seq is its last message");
            }
        }
        assertEquals(6, conversations);
        long unreadOwn = MessageChecks.count(database, "select count(*) from conversation_members m"
                + " where m.app_id = ? and m.read_seq < (select max(x.seq) from messages x"
                + " where x.conversation_id = m.conversation_id and x.sender_id = m.user_id)", api.appId);
        assertEquals(0, unreadOwn, "a sender has read everything up to its own last message");

        double[] after = batchMetric();
        assertTrue(after[1] - before[1] > after[0] - before[0],
                "some commit held several messages: commits " + (after[0] - before[0]) + ", messages "
                        + (after[1] - before[1]));
        assertEquals(after[1] - before[1], after[2] - before[2], "each stored message's wait is timed once");
        assertEquals(after[0] - before[0], after[3] - before[3], "each commit's transaction is timed once");
        String metrics = given().get("/q/metrics").asString();
        assertTrue(metrics.contains("imcore_messages_commit_wait_seconds_bucket{le=\"0.02\"}"),
                "the wait has the fixed latency buckets (LatencyBuckets)");
        assertTrue(Pattern.compile("(?m)^http_server_requests_seconds_bucket\\{[^}]*uri=\"/message/send\"[^}]*\\}")
                .matcher(metrics).find(), "the HTTP server timer has them too");
        assertTrue(metric(metrics, "imcore_messages_send_service_seconds_count") >= senders * each,
                "every send through the service is timed");
        assertTrue(metric(metrics, "imcore_throttle_take_seconds_count") >= senders * each,
                "every send's quota take is timed");
    }

    @Test
    void concurrentSendsToOneGroupShareItsLockAndKeepOneOrder() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        List<Long> members = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            members.add(api.newUser());
        }
        long group = api.createGroup(members.get(0), members.subList(1, members.size()));
        double[] before = batchMetric();
        int each = 10;
        ExecutorService pool = Executors.newFixedThreadPool(members.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (long member : members) {
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < each; i++) {
                    Map<String, Object> body = MessageApi.toGroup(member + "-" + i, group);
                    body.put("transaction_id", i); // per sender: a repeat of one is not stored twice
                    assertEquals(200, (int) api.send(member, body).extract().path("code"));
                    if (i == each - 1) {
                        assertEquals(200, (int) api.send(member, body).extract().path("code"));
                    }
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        int total = members.size() * each;
        assertEquals(total, MessageChecks.messagesOfGroup(database, api, group));
        List<long[]> rows = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select m.seq, m.msg_id, m.sender_id, m.content,"
                    + " c.last_seq, c.last_msg_id from messages m join groups g on g.conversation_id = m.conversation_id"
                    + " join conversations c on c.id = g.conversation_id where g.app_id = ? and g.group_id = ?"
                    + " order by m.seq")) {
                ps.setString(1, api.appId);
                ps.setLong(2, group);
                List<long[]> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String content = rs.getString(4);
                        out.add(new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3),
                            Long.parseLong(content.substring(content.indexOf('-') + 1)), rs.getLong(5), rs.getLong(6)});
                    }
                }
                return out;
            }
        });
        Map<Long, Long> lastOfSender = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            long[] row = rows.get(i);
            assertEquals(i + 1, row[0], "seq without gaps or repeats");
            if (i > 0) {
                assertTrue(row[1] > rows.get(i - 1)[1], "msg_id grows with seq");
            }
            Long previous = lastOfSender.put(row[2], row[3]);
            assertEquals(previous == null ? 0 : previous + 1, row[3], "each sender's messages in its own order");
            assertEquals(total, row[4], "last_seq");
        }
        assertEquals(rows.get(rows.size() - 1)[1], rows.get(0)[5], "last_msg_id is the last message's");
        long behind = MessageChecks.count(database, "select count(*) from conversation_members m"
                + " join groups g on g.conversation_id = m.conversation_id where g.app_id = ? and g.group_id = ?"
                + " and m.read_seq < (select max(x.seq) from messages x where x.conversation_id = m.conversation_id"
                + " and x.sender_id = m.user_id)", api.appId, group);
        assertEquals(0, behind, "a sender has read everything up to its own last message");

        double[] after = batchMetric();
        assertTrue(after[1] - before[1] > after[0] - before[0], "some commit held several group messages");
    }

    /**
     * A send answers with the commit's future instead of waiting for it, so the route holds no worker thread
     * while the commit runs: with its conversation's row locked, the call returns at once, and its answer
     * completes after the lock is released.
     */
    @Test
    void aSendReturnsBeforeItsCommitAndIsAnsweredByIt() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        long alice = api.newUser();
        long bob = api.newUser();
        api.sendText(alice, bob, "creates the conversation");
        RequestContext caller = checkedCaller(api, alice);
        SendRequest request = new SendRequest(0, "waits for the lock", null, null, null, null, List.of(bob), 1, null);
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement ps = lock.prepareStatement(
                    "select id from conversations where app_id = ? for update")) {
                ps.setString(1, api.appId);
                ps.executeQuery().close();
            }
            CompletableFuture<Boolean> answer = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> sending.send(Operation.SEND, caller, request), "the send waited for its commit");
            LockWaiters.await(lock, "the send's commit waiting for its conversation's row");
            assertFalse(answer.isDone(), "answered while its conversation row was locked");
            lock.rollback();
            assertTrue(answer.get(30, TimeUnit.SECONDS));
        }
        assertEquals(1, MessageChecks.messagesWithContent(database, api, "waits for the lock"));
    }

    @Test
    void aMessageTheDatabaseRefusesFailsOnlyItsOwnCaller() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        long alice = api.newUser();
        List<Long> peers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            peers.add(api.newUser());
        }
        ExecutorService pool = Executors.newFixedThreadPool(peers.size() + 1);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<CompletableFuture<Outcome>>> good = new ArrayList<>();
        for (long peer : peers) {
            good.add(pool.submit(() -> {
                go.await();
                return committer.submit(send(api.appId, alice, peer, "fine"));
            }));
        }
        // content is not null in the table: this one message fails in whatever batch it lands
        Future<CompletableFuture<Outcome>> bad = pool.submit(() -> {
            go.await();
            return committer.submit(send(api.appId, alice, peers.get(0), null));
        });
        go.countDown();
        for (Future<CompletableFuture<Outcome>> f : good) {
            assertEquals(Outcome.STORED, f.get(60, TimeUnit.SECONDS).get(60, TimeUnit.SECONDS));
        }
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> bad.get(60, TimeUnit.SECONDS).get(60, TimeUnit.SECONDS));
        assertInstanceOf(DatabaseException.class, refused.getCause());
        pool.shutdown();
        assertEquals(peers.size(), MessageChecks.messagesOfApp(database, api));
    }

    /**
     * The membership is checked in the transaction that stores the message, with the member's row locked: a
     * removal in progress (the group row locked FOR UPDATE, the member row deleted, not yet committed) makes the send
     * wait, and once it commits the send is refused. Checked before the send was queued, it would have been stored.
     */
    @Test
    void aMemberRemovedBeforeTheSendCommitsCannotSend() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        long owner = api.newUser();
        long leaving = api.newUser();
        long group = api.createGroup(owner, List.of(leaving));
        RequestContext caller = checkedCaller(api, leaving);
        SendRequest request = new SendRequest(0, "sent while leaving", null, null, null, null, List.of(group), 2,
                null);
        CompletableFuture<Boolean> answer;
        try (Connection removal = dataSource.getConnection()) {
            removal.setAutoCommit(false);
            try (PreparedStatement lock = removal.prepareStatement(
                    "select conversation_id from groups where app_id = ? and group_id = ? for update");
                    PreparedStatement delete = removal.prepareStatement(
                            "delete from conversation_members where conversation_id = ? and user_id = ?")) {
                lock.setString(1, api.appId);
                lock.setLong(2, group);
                try (ResultSet rs = lock.executeQuery()) {
                    assertTrue(rs.next());
                    delete.setLong(1, rs.getLong(1));
                }
                delete.setLong(2, leaving);
                assertEquals(1, delete.executeUpdate());
            }
            answer = sending.send(Operation.SEND, caller, request);
            LockWaiters.await(removal, "the send's commit waiting for the membership change");
            assertFalse(answer.isDone(), "answered while the group's membership was being changed");
            removal.commit();
        }
        assertEquals(ErrorCode.NOT_GROUP_MEMBER, refusalOf(answer));
        assertEquals(0, MessageChecks.messagesWithContent(database, api, "sent while leaving"));
    }

    /**
     * Group sends refused in a batch (not a member, no such group) change nothing, leave no transaction_id claim,
     * and do not fail the batch's other sends.
     */
    @Test
    void refusedGroupSendsInABatchFailOnlyTheirOwnCallers() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        long owner = api.newUser();
        long member = api.newUser();
        long stranger = api.newUser();
        long group = api.createGroup(owner, List.of(member));
        double[] before = batchMetric();
        CompletableFuture<Outcome> first;
        List<CompletableFuture<Outcome>> stored = new ArrayList<>();
        CompletableFuture<Outcome> notMember;
        CompletableFuture<Outcome> noGroup;
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement ps = lock.prepareStatement("select 1 from conversations c join groups g"
                    + " on g.conversation_id = c.id where g.app_id = ? and g.group_id = ? for update of c")) {
                ps.setString(1, api.appId);
                ps.setLong(2, group);
                ps.executeQuery().close();
            }
            // the first waits for its conversation's row in its own batch; the rest queue behind it on the same thread
            first = committer.submit(toGroup(api.appId, group, owner, true, null));
            Thread.sleep(300);
            stored.add(committer.submit(toGroup(api.appId, group, member, true, 7L)));
            notMember = committer.submit(toGroup(api.appId, group, stranger, true, 8L));
            stored.add(committer.submit(toGroup(api.appId, group, stranger, false, null))); // an admin's, for them
            noGroup = committer.submit(toGroup(api.appId, group + 1_000_000, member, true, null));
            lock.commit();
        }
        assertEquals(Outcome.STORED, first.get(30, TimeUnit.SECONDS));
        for (CompletableFuture<Outcome> one : stored) {
            assertEquals(Outcome.STORED, one.get(30, TimeUnit.SECONDS));
        }
        assertEquals(ErrorCode.NOT_GROUP_MEMBER, committerRefusalOf(notMember));
        assertEquals(ErrorCode.GROUP_NOT_FOUND, committerRefusalOf(noGroup));
        assertEquals(3, MessageChecks.messagesOfGroup(database, api, group));
        assertEquals(1, MessageChecks.count(database, "select count(*) from send_dedup where app_id = ?", api.appId),
                "only the stored send's transaction_id is claimed");
        double[] after = batchMetric();
        assertEquals(2, after[0] - before[0], "the first send alone, then the other four in one commit");
    }

    /**
     * A send to several groups is checked as a send to one, in the transaction that stores it, and refused whole:
     * the first reason any group gives, naming every group that gives it, in the request's order.
     */
    @Test
    void aSendToSeveralGroupsIsRefusedWholeNamingItsGroups() {
        MessageApi api = MessageApi.newApp(database);
        long owner = api.newUser();
        long member = api.newUser();
        long first = api.createGroup(owner, List.of(member));
        long second = api.createGroup(owner, List.of(member));
        long ownersOnly = api.createGroup(owner, List.of(api.newUser()));
        long noGroup = ownersOnly + 1_000_000;

        Map<String, Object> body = MessageApi.text("to two groups", List.of(first, second));
        body.put("type", 2);
        api.send(member, body).body("code", equalTo(200));
        body.put("targets", List.of(first, ownersOnly, second));
        api.send(member, body).body("code", equalTo(ErrorCode.NOT_GROUP_MEMBER.code()))
                .body("message", equalTo("targets: sender is not a member of group " + ownersOnly));
        body.put("targets", List.of(noGroup, ownersOnly, 5L));
        api.send(member, body).body("code", equalTo(ErrorCode.GROUP_NOT_FOUND.code()))
                .body("message", equalTo("targets: no such group " + noGroup + ", 5"));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, first));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, second));
        assertEquals(0, MessageChecks.messagesOfGroup(database, api, ownersOnly));
    }

    /** The caller of a user token of the app, checked as /message/send checks it. */
    private RequestContext checkedCaller(MessageApi api, long user) {
        RequestContext caller = new RequestContext();
        Map<String, String> headers = Map.of("app_id", api.appId, "access-token", api.userToken(user));
        callerChecks.check(Access.Level.USER, headers::get, caller);
        return caller;
    }

    /** The code of the ApiException the answer fails with; fails the test if it completes otherwise. */
    private static ErrorCode refusalOf(CompletableFuture<Boolean> answer) {
        ExecutionException refused = assertThrows(ExecutionException.class, () -> answer.get(30, TimeUnit.SECONDS));
        return assertInstanceOf(ApiException.class, refused.getCause()).errorCode();
    }

    /** The code of the committer's refusal; fails the test if the send was not refused. */
    private static ErrorCode committerRefusalOf(CompletableFuture<Outcome> outcome) throws Exception {
        ApiException refusal = outcome.get(30, TimeUnit.SECONDS).refusal();
        assertTrue(refusal != null, "refused");
        return refusal.errorCode();
    }

    private static GroupSend toGroup(String appId, long groupId, long from, boolean membersOnly, Long transactionId) {
        SendStore.Message message = new SendStore.Message(from, null, 0, "to the group", null, null, null,
                System.currentTimeMillis());
        return new GroupSend(appId, groupId, message, membersOnly, transactionId, "true");
    }

    private static DirectSend send(String appId, long from, long to, String content) {
        SendStore.Message message = new SendStore.Message(from, null, 0, content, null, null, null,
                System.currentTimeMillis());
        return new DirectSend(new SendStore.DirectMessage(appId, Math.min(from, to), Math.max(from, to), message),
                null, "true");
    }

    /** Commits and messages counted by the group-commit summary so far, then the waits and transactions timed. */
    private static double[] batchMetric() {
        String metrics = given().get("/q/metrics").asString();
        return new double[] {metric(metrics, "imcore_messages_commit_batch_count"),
            metric(metrics, "imcore_messages_commit_batch_sum"),
            metric(metrics, "imcore_messages_commit_wait_seconds_count"),
            metric(metrics, "imcore_messages_commit_transaction_seconds_count")};
    }

    private static double metric(String metrics, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "(?:\\{[^}]*\\})? ([0-9.eE+-]+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}

// The message workload: sends and reads through the gateway, each for duration (20) s after warmup (3) s that is
// run but not measured, on BenchUsers' users (the setup phase first). Each phase prints one RESULT line and its
// CPU line (Results). Sends with LoadClient (option client: raw or jdk).
//   send-closed  1:1 text sends, c senders (default 100), each to its own peer, closed loop
//   send-rate    1:1 text sends at a fixed rate (rate=1000/s) from a fixed pool of workers and connections
//                (workers=100), open loop; latency counts from the scheduled send time (no coordinated omission)
//   group        type 2 sends to the group of group_size members, c senders who are members (default 10)
//   conversation GET /message/conversation?opposite_id=PEER&limit=20, c readers (default 64), full pages of 20
//   auth-read    GET /user/device/list (auth-service), c clients (default 100): the authenticated baseline
//   noop         GET /bench-noop answered by nginx itself (code 10002), c clients (default 100)
//   sync         GET /message/sync?cursor=C&limit=100, c readers (default 100) of one user's log from the cursor before
//                its last `changes` (default 1000) changes (its own sends, made first): full pages of 100

import java.util.Locale;
import java.util.function.IntFunction;

final class MessageWorkload {

    /** A send's answer: data true. */
    static final String SENT = "\"data\":true";

    private MessageWorkload() {}

    static double warmup() {
        return Options.getDouble("warmup", 3);
    }

    static double duration() {
        return Options.getDouble("duration", 20);
    }

    /** Sender w (of c) sends message json(w), again and again, closed loop. */
    static Results.Outcome closedSends(BenchUsers s, int c, IntFunction<String> json) throws InterruptedException {
        LoadClient client = LoadClient.forWorkers(c);
        Object[] sends = new Object[c];
        for (int i = 0; i < c; i++) {
            sends[i] = client.prepare("POST", "/message/send", s.tokens()[i], json.apply(i));
        }
        return Loops.closedLoop(c, warmup(), duration(), (w, i) -> Results.check(client.send(w, sends[w]), 200, SENT));
    }

    static void sendClosed() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Math.min(Options.getInt("c", 100), s.pairs());
        Results.Outcome o = closedSends(s, c, i -> s.sendJson(i, "closed-loop message from"));
        Results.report("1:1 send, closed loop, c=" + c + " (" + c + " senders, each to its own peer)", o,
                Results.clientNote(o));
    }

    static void sendRate() throws Exception {
        BenchUsers s = BenchUsers.load();
        double rate = Options.getDouble("rate", 1000);
        int workers = Options.getInt("workers", 100);
        LoadClient client = LoadClient.forWorkers(workers);
        Object[] sends = new Object[s.pairs()];
        for (int i = 0; i < s.pairs(); i++) {
            sends[i] = client.prepare("POST", "/message/send", s.tokens()[i],
                    s.sendJson(i, "fixed-rate message from"));
        }
        Loops.OpenOutcome open = Loops.openLoop(rate, workers, warmup(), duration(),
                (w, i) -> Results.check(client.send(w, sends[(int) (i % sends.length)]), 200, SENT));
        Results.report(String.format(Locale.ROOT, "1:1 send, open loop at %.0f/s (%d pairs, %d connections)", rate,
                s.pairs(), workers), open.outcome(), Results.openLoopNote(open));
    }

    static void group() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Math.min(Options.getInt("c", 10), s.pairs());
        Results.Outcome o = closedSends(s, c, i -> "{\"content_type\":0,\"content\":\"group message from "
                + s.senders()[i] + "\",\"targets\":[" + s.groupId() + "],\"type\":2}");
        Results.report("group send, " + s.groupSize() + " members, closed loop, c=" + c + " (members sending)", o,
                Results.clientNote(o));
    }

    static void conversation() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Options.getInt("c", 64);
        int limit = 20;
        int pairs = s.pairs();
        LoadClient client = LoadClient.forWorkers(c);
        Object[] reads = new Object[pairs];
        for (int i = 0; i < pairs; i++) {
            reads[i] = client.prepare("GET", "/message/conversation?opposite_id=" + s.peers()[i] + "&limit=" + limit,
                    s.tokens()[i], null);
        }
        String full = "\"messages_size\":" + limit + ",";
        // every conversation answers a full page of 20, or the phase would measure something else
        for (int i = 0; i < pairs; i++) {
            String error = Results.check(client.send(0, reads[i]), 200, full);
            if (error != null) {
                throw new IllegalStateException("conversation " + i + " not ready for the read phase: " + error);
            }
        }
        Results.Outcome o = Loops.closedLoop(c, warmup(), duration(),
                (w, i) -> Results.check(client.send(w, reads[(int) ((w + i * c) % pairs)]), 200, full));
        Results.report("conversation page reads (limit=20), c=" + c + " readers over " + pairs + " conversations", o,
                Results.clientNote(o));
    }

    static void authRead() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Options.getInt("c", 100);
        LoadClient client = LoadClient.forWorkers(c);
        Object[] reads = new Object[s.pairs()];
        for (int i = 0; i < s.pairs(); i++) {
            reads[i] = client.prepare("GET", "/user/device/list", s.tokens()[i], null);
        }
        Results.Outcome o = Loops.closedLoop(c, warmup(), duration(),
                (w, i) -> Results.check(client.send(w, reads[w % reads.length]), 200, null));
        Results.report("baseline: GET /user/device/list (auth-service), c=" + c, o, Results.clientNote(o));
    }

    static void noop() throws Exception {
        int c = Options.getInt("c", 100);
        LoadClient client = LoadClient.forWorkers(c);
        Object noop = client.prepare("GET", "/bench-noop", null, null);
        Results.Outcome o = Loops.closedLoop(c, warmup(), duration(),
                (w, i) -> Results.check(client.send(w, noop), 10002, null));
        Results.report("baseline: gateway no-op GET /bench-noop (nginx), c=" + c, o, Results.clientNote(o));
    }

    static void sync() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Options.getInt("c", 100);
        int changes = Options.getInt("changes", 1000);
        int limit = 100;
        LoadClient client = LoadClient.forWorkers(c);
        String token = s.tokens()[0];
        // the end of sender 0's log: read on until nothing is left
        String cursor = null;
        while (true) {
            LoadClient.Reply reply = client.send(0, client.prepare("GET", "/message/sync?limit=500"
                    + (cursor == null ? "" : "&cursor=" + cursor), token, null));
            String error = Results.check(reply, 200, "\"has_more\"");
            if (error != null) {
                throw new IllegalStateException("sync before the changes: " + error);
            }
            String body = reply.body();
            int at = body.lastIndexOf("\"cursor\":\"") + "\"cursor\":\"".length();
            cursor = body.substring(at, body.indexOf('"', at));
            if (!body.contains("\"has_more\":true")) {
                break;
            }
        }
        Object send = client.prepare("POST", "/message/send", token, s.sendJson(0, "sync bench change from"));
        for (int i = 0; i < changes; i++) {
            String error = Results.check(client.send(0, send), 200, SENT);
            if (error != null) {
                throw new IllegalStateException("change " + i + " for the sync phase: " + error);
            }
        }
        Object read = client.prepare("GET", "/message/sync?limit=" + limit + "&cursor=" + cursor, token, null);
        String full = "\"has_more\":true";
        String error = Results.check(client.send(0, read), 200, full);
        if (error != null) {
            throw new IllegalStateException("the sync phase's page is not full: " + error);
        }
        Results.Outcome o = Loops.closedLoop(c, warmup(), duration(),
                (w, i) -> Results.check(client.send(w, read), 200, full));
        Results.report("sync: pages of " + limit + " of one user's " + changes + " changes from a cursor, closed loop,"
                + " c=" + c, o, Results.clientNote(o));
    }
}

// The users every workload sends as, and the setup phase that makes them: pairs of (sender, peer) users, the
// senders' tokens, a group of group_size members. Kept in state (<local_dir>/bench/message-state.properties) and
// reused while its tokens and group still work (force=1 makes new users).
//   setup   options pairs (100), group_size (500), seed (20: messages each pair's conversation gets at least, so
//           the read phase reads full pages of 20), register_batch (100 users per /user/register/batch)

import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

record BenchUsers(long[] senders, long[] peers, String[] tokens, long groupId, int groupSize) {

    /** Every bench user's password. */
    static final String PASSWORD = "bench-pass-1";

    int pairs() {
        return senders.length;
    }

    /** A 1:1 text message of sender `pair` to its peer: "CONTENT SENDER_ID". */
    String sendJson(int pair, String content) {
        return "{\"content_type\":0,\"content\":\"" + content + " " + senders[pair] + "\",\"targets\":["
                + peers[pair] + "],\"type\":1}";
    }

    static Path path() {
        return Path.of(Options.get("state", Options.localDir().resolve("bench/message-state.properties").toString()));
    }

    static BenchUsers load() throws IOException {
        Path path = path();
        if (!Files.exists(path)) {
            throw new IllegalStateException(path + " missing: run the setup phase first");
        }
        Properties p = StateFile.read(path);
        if (!Api.appId.equals(p.getProperty("app_id"))) {
            throw new IllegalStateException(path + " belongs to another app: run setup again");
        }
        int pairs = Integer.parseInt(p.getProperty("pairs"));
        long[] senders = new long[pairs];
        long[] peers = new long[pairs];
        String[] tokens = new String[pairs];
        for (int i = 0; i < pairs; i++) {
            senders[i] = Long.parseLong(p.getProperty("sender." + i));
            peers[i] = Long.parseLong(p.getProperty("peer." + i));
            tokens[i] = p.getProperty("token." + i);
        }
        return new BenchUsers(senders, peers, tokens, Long.parseLong(p.getProperty("group_id")),
                Integer.parseInt(p.getProperty("group_size")));
    }

    void save(String prefix) throws IOException {
        Properties p = new Properties();
        p.setProperty("app_id", Api.appId);
        p.setProperty("base_url", Api.baseUrl);
        p.setProperty("prefix", prefix);
        p.setProperty("pairs", String.valueOf(pairs()));
        for (int i = 0; i < pairs(); i++) {
            p.setProperty("sender." + i, String.valueOf(senders[i]));
            p.setProperty("peer." + i, String.valueOf(peers[i]));
            p.setProperty("token." + i, tokens[i]);
        }
        p.setProperty("group_id", String.valueOf(groupId));
        p.setProperty("group_size", String.valueOf(groupSize));
        StateFile.write(path(), p, "deploy/bench/load setup: users, tokens (secrets!) and group of the benchmark");
    }

    // ---- the setup phase -----------------------------------------------------------------------------------

    static void setup() throws Exception {
        int pairs = Options.getInt("pairs", 100);
        int groupSize = Options.getInt("group_size", 500);
        int seed = Options.getInt("seed", 20);
        if (groupSize > 2 * pairs + 1000 || groupSize < 2) {
            throw new IllegalArgumentException("group_size must be 2 to " + (2 * pairs + 1000));
        }
        Api.call(Api.get("/bench-noop", null)); // the gateway answers
        BenchUsers users = reusable(pairs, groupSize);
        long started = System.nanoTime();
        String notes;
        if (users != null) {
            notes = "reused " + path();
        } else {
            String adminToken = Options.env("ADMIN_TOKEN");
            String prefix = "mb" + Long.toString(System.currentTimeMillis(), 36);
            // pairs senders and pairs peers; the group takes sender 0 as owner, then senders, peers, extra users
            long[] senders = register(adminToken, prefix + "_s", pairs);
            long[] peers = register(adminToken, prefix + "_p", pairs);
            int extra = Math.max(0, groupSize - 2 * pairs);
            long[] extras = register(adminToken, prefix + "_g", extra);
            System.err.printf(Locale.ROOT, "setup: registered %d users (%.1f s)%n", 2 * pairs + extra,
                    (System.nanoTime() - started) / 1e9);
            String[] tokens = tokensFor(senders);
            System.err.printf(Locale.ROOT, "setup: %d tokens (%.1f s)%n", pairs, (System.nanoTime() - started) / 1e9);
            long[] members = new long[groupSize];
            int m = 0;
            for (long[] ids : new long[][] {senders, peers, extras}) {
                for (long id : ids) {
                    if (m < groupSize) {
                        members[m++] = id;
                    }
                }
            }
            // user_list holds the owner too (the service leaves the owner in the owner role)
            String body = "{\"name\":\"bench-" + groupSize + "\",\"user_list\":" + Json.ids(members, 0, groupSize)
                    + "}";
            String answer = Api.callOk(Api.post("/group/create", tokens[0], body));
            long groupId = Long.parseLong(Json.field(answer, "group_id"));
            String count = Json.field(answer, "member_count");
            if (!String.valueOf(groupSize).equals(count)) {
                throw new IllegalStateException("group has " + count + " members, not " + groupSize + ": " + answer);
            }
            users = new BenchUsers(senders, peers, tokens, groupId, groupSize);
            users.save(prefix);
            notes = "new users " + prefix + "_*, group " + groupId;
        }
        users.seedConversations(seed);
        System.out.printf(Locale.ROOT, "RESULT|setup|%d pairs, group of %d|%.1f s|%s%n", users.pairs(),
                users.groupSize(), (System.nanoTime() - started) / 1e9, notes);
    }

    /** The state file, when it is for this app and size and its tokens and group still work. */
    static BenchUsers reusable(int pairs, int groupSize) {
        if (!"".equals(Options.get("force", "")) && !"0".equals(Options.get("force", "0"))) {
            return null;
        }
        try {
            BenchUsers s = load();
            if (s.pairs() != pairs || s.groupSize() != groupSize) {
                return null;
            }
            for (int i : new int[] {0, pairs - 1}) {
                Api.callOk(Api.get("/user/device/list", s.tokens[i]));
            }
            String info = Api.callOk(Api.get("/group/info?group_id=" + s.groupId, s.tokens[0]));
            return String.valueOf(groupSize).equals(Json.field(info, "member_count")) ? s : null;
        } catch (Exception e) {
            System.err.println("setup: state not reusable (" + e.getMessage() + "): creating new users");
            return null;
        }
    }

    /** n new users NAME_PREFIX0.., register_batch (100) per call; their ids. */
    static long[] register(String adminToken, String namePrefix, int n) throws Exception {
        long[] ids = new long[n];
        Pattern entry = Pattern.compile("\\{[^{}]*\\}");
        int batch = Options.getInt("register_batch", 100);
        for (int from = 0; from < n; from += batch) {
            int to = Math.min(n, from + batch);
            StringBuilder body = new StringBuilder("{\"list\":[");
            for (int i = from; i < to; i++) {
                body.append(i == from ? "" : ",").append("{\"username\":\"").append(namePrefix).append(i)
                        .append("\",\"password\":\"").append(PASSWORD).append("\"}");
            }
            HttpRequest request = Api.post("/user/register/batch", adminToken, body.append("]}").toString());
            String answer = Api.call(request);
            // 50003 "safe to retry": the batch outlasted its budget on a busy machine and stored nothing, or its
            // answer was lost; a retry answers entries already stored with their ids (docs/api-decisions.md "Users")
            for (int retry = 0; Json.code(answer) == 50003 && retry < 5; retry++) {
                System.err.println("setup: /user/register/batch answered 50003, retrying");
                answer = Api.call(request);
            }
            if (Json.code(answer) != 200) {
                throw new IOException("POST /user/register/batch answered " + Json.abbreviate(answer));
            }
            Matcher m = entry.matcher(answer.substring(answer.indexOf("\"data\"")));
            int i = from;
            while (m.find()) {
                String e = m.group();
                if (!"true".equals(Json.field(e, "success"))) {
                    throw new IllegalStateException("registration failed: " + e);
                }
                if (i >= to || !(namePrefix + i).equals(Json.field(e, "username"))) {
                    throw new IllegalStateException("unexpected registration answer: " + e);
                }
                ids[i++] = Long.parseLong(Json.field(e, "user_id"));
            }
            if (i != to) {
                throw new IllegalStateException("registration answered " + (i - from) + " of " + (to - from));
            }
        }
        return ids;
    }

    /** One token per user, without a device (a WebSocket then names any device_sn). bcrypt bounds the rate. */
    static String[] tokensFor(long[] users) throws Exception {
        String[] tokens = new String[users.length];
        inParallel(4, users.length, k -> {
            try {
                String answer = Api.callOk(Api.post("/token/id", null,
                        "{\"user_id\":" + users[k] + ",\"password\":\"" + PASSWORD + "\"}"));
                tokens[k] = Json.field(answer, "token");
            } catch (Exception e) {
                throw new IllegalStateException("token for user " + users[k] + ": " + e.getMessage(), e);
            }
        });
        return tokens;
    }

    /** Each conversation gets at least `seed` messages, so the read phase reads full pages of 20. */
    void seedConversations(int seed) throws Exception {
        AtomicInteger sent = new AtomicInteger();
        inParallel(Math.min(32, pairs()), pairs(), k -> {
            try {
                String page = Api.callOk(Api.get("/message/conversation?opposite_id=" + peers[k] + "&limit=" + seed,
                        tokens[k]));
                int have = Integer.parseInt(Json.field(page, "messages_size"));
                HttpRequest send = Api.post("/message/send", tokens[k], sendJson(k, "seed message"));
                for (int j = have; j < seed; j++) {
                    Api.callOk(send);
                    sent.incrementAndGet();
                }
            } catch (Exception e) {
                throw new IllegalStateException("seeding pair " + k + ": " + e.getMessage(), e);
            }
        });
        System.err.println("setup: seeded " + sent.get() + " messages");
    }

    /** Setup's calls: task(0) .. task(n - 1) on a pool of `threads`; returns when all are done, else throws. */
    static void inParallel(int threads, int n, IntConsumer task) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                all.add(CompletableFuture.runAsync(() -> task.accept(k), pool));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        } finally {
            pool.shutdownNow();
        }
    }
}

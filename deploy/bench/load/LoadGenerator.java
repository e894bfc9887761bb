// The benchmarks' load generator (deploy/bench/message.sh, push.sh and deploy/chaos/run.sh run it; docs/benchmarks.md).
// JDK 17 only, no dependency (light on the 2-core machine's CPU, and its figures stay comparable with the recorded
// ones: docs/benchmarks.md says why no Gatling or HdrHistogram); compiled, then run from the classes:
//   javac -d DIR deploy/bench/load/*.java && java -cp DIR LoadGenerator PHASE [key=value ...]
// Environment: BASE_URL, APP_ID, ADMIN_TOKEN (as in .local/env). Options: key=value, or the environment variable in
// capitals (Options); the common ones: local_dir (the stack's LOCAL_DIR, .local), duration (20 s), warmup (3 s, run
// but not measured), c (concurrency), state (<local_dir>/bench/message-state.properties), client (raw or jdk).
// The phases, one file per workload over a shared client (LoadClient, RawHttpClient, Api, Json), the load shapes
// (Loops), their recording and output lines (Results, CpuSample) and the users they send as (BenchUsers):
//   setup                                                      BenchUsers
//   send-closed send-rate group conversation auth-read noop sync    MessageWorkload
//   ws-idle                                                    WebSocketWorkload
//   send-live                                                  LiveWorkload
//   push-accept push-expand                                    PushWorkload
//   offline-setup offline-rate offline-group                   OfflinePushWorkload
//   file-upload file-complete file-large                       FileWorkload
//   chaos-send chaos-verify                                    FaultWorkload

final class LoadGenerator {

    private LoadGenerator() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: java -cp DIR LoadGenerator setup|send-closed|send-rate|group|conversation|"
                    + "auth-read|noop|sync|ws-idle|send-live|push-accept|push-expand|offline-setup|offline-rate|offline-group|"
                    + "file-upload|file-complete|file-large|chaos-send|chaos-verify [key=value ...]");
            System.exit(2);
        }
        Options.parse(args);
        Api.init();
        switch (Options.phase) {
            case "setup" -> BenchUsers.setup();
            case "send-closed" -> MessageWorkload.sendClosed();
            case "send-rate" -> MessageWorkload.sendRate();
            case "group" -> MessageWorkload.group();
            case "conversation", "read" -> MessageWorkload.conversation();
            case "auth-read" -> MessageWorkload.authRead();
            case "noop" -> MessageWorkload.noop();
            case "sync" -> MessageWorkload.sync();
            case "ws-idle" -> WebSocketWorkload.idle();
            case "send-live" -> LiveWorkload.sendLive();
            case "push-accept" -> PushWorkload.accept();
            case "push-expand" -> PushWorkload.expand();
            case "offline-setup" -> OfflinePushWorkload.setup();
            case "offline-rate" -> OfflinePushWorkload.rate();
            case "offline-group" -> OfflinePushWorkload.group();
            case "file-upload" -> FileWorkload.upload();
            case "file-complete" -> FileWorkload.complete();
            case "file-large" -> FileWorkload.large();
            case "chaos-send" -> FaultWorkload.send();
            case "chaos-verify" -> FaultWorkload.verify();
            default -> {
                System.err.println("unknown phase " + Options.phase);
                System.exit(2);
            }
        }
        System.exit(0);
    }
}

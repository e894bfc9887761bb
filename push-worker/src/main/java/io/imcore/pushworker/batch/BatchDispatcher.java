package io.imcore.pushworker.batch;

import io.imcore.common.push.Channel;
import io.imcore.common.push.PushBatch;
import io.imcore.common.push.PushBatch.Target;
import io.imcore.common.store.Database;
import io.imcore.pushworker.WorkerConfig;
import io.imcore.pushworker.batch.WorkerMetrics.Result;
import io.imcore.pushworker.certificate.CredentialCache;
import io.imcore.pushworker.channel.AdapterRegistry;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Sends one channel record (a batch of one task) and counts it: claim, badges, the adapter calls with retries and
 * rate limits, the svcpush fallback to OS channels, then the counts in one transaction (docs/push-worker.md). The
 * work runs on the {@link SenderPool} shared by every channel; waits hold no thread.
 */
@ApplicationScoped
public class BatchDispatcher {

    /** The batch was left unfinished (the worker is stopping): it is not counted and its record is read again. */
    static final class Abandoned extends RuntimeException {
        Abandoned() {
            super("stopping", null, false, false);
        }
    }

    /**
     * Channels whose payload carries the app-icon badge, so the server keeps the device's counter for them (vendor_a
     * only with a badge_class: its badge needs the launcher class).
     */
    private static final Set<Channel> BADGE_CHANNELS =
            EnumSet.of(Channel.APNS, Channel.FCM, Channel.HUAWEI, Channel.SVCPUSH);

    private static final Logger LOG = Logger.getLogger(BatchDispatcher.class);
    /** The failure reason of targets not sent because the message's show_end_time came first. */
    static final String SHOW_END_TIME_PASSED = "show_end_time passed";

    private final Database database;
    private final ClaimLeases leases;
    private final BatchLedger ledger;
    private final OfflineLedger offlineLedger;
    private final AdapterRegistry adapters;
    private final CredentialCache credentials;
    private final WorkerMetrics metrics;
    private final WorkerConfig config;
    private final DeliveryPacer pacer;
    private final SenderPool senders;

    public BatchDispatcher(Database database, ClaimLeases leases, BatchLedger ledger, OfflineLedger offlineLedger,
            AdapterRegistry adapters, CredentialCache credentials, WorkerMetrics metrics, WorkerConfig config,
            SenderPool senders, DeliveryPacer pacer) {
        this.database = database;
        this.leases = leases;
        this.ledger = ledger;
        this.offlineLedger = offlineLedger;
        this.adapters = adapters;
        this.credentials = credentials;
        this.metrics = metrics;
        this.config = config;
        this.senders = senders;
        this.pacer = pacer;
    }

    /**
     * Processes the batch unless it was counted before, on the {@link SenderPool}: called on a sender thread, it
     * returns when the batch first waits or is done. The future completes when the batch is done with, exceptionally
     * on a database failure (the record is then read again) and with {@link Abandoned} when stopping.
     */
    CompletableFuture<Void> process(PushBatch batch) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Optional<Channel> parsed = Channel.fromWireName(batch.channel());
        if (parsed.isEmpty()) {
            LOG.errorf("task %d batch %d: unknown channel %s, skipped", batch.taskId(), batch.batchNo(),
                    batch.channel());
            done.complete(null);
            return done;
        }
        BatchRun run = new BatchRun(batch, parsed.get(), done);
        try {
            run.claim();
        } catch (RuntimeException e) {
            run.fail(e);
        }
        return done;
    }

    /** Where the batch stands, and its devices' badge numbers (empty for channels without a badge). */
    private record Claimed(BatchLedger.Claim claim, Map<Long, Integer> badges) {}

    /** A delivery with the environment of the certificate to send it with. */
    private record Pending(Delivery delivery, int environment) {}

    /**
     * One batch from its claim to its counts, as steps on the sender pool: each step runs until the batch has to
     * wait (for a lease, a backoff or the rate limit), then hands the rest to {@link SenderPool#after}.
     */
    private final class BatchRun {

        private final PushBatch batch;
        private final Channel channel;
        private final Notification notification;
        private final CompletableFuture<Void> done;
        private final Tally tally = new Tally();
        private final Instant deadline;
        private boolean claimed;
        /** An offline push record: the devices this worker claimed (the others are sent or held elsewhere). */
        private Set<Long> offlineDevices = Set.of();
        /** An offline push record of which another live worker holds some devices: claimed again after ours. */
        private boolean othersHold;

        BatchRun(PushBatch batch, Channel channel, CompletableFuture<Void> done) {
            this.batch = batch;
            this.channel = channel;
            // an offline push has no task: its adapters' ids (receipt parameters) carry the message as -msg_id
            this.notification = new Notification(batch.offline() == null ? batch.taskId() : -batch.offline().msgId(),
                    batch.appId(), batch.message());
            this.done = done;
            this.deadline = batch.showEndTime() == null ? null : Instant.ofEpochSecond(batch.showEndTime());
        }

        void claim() {
            if (batch.offline() != null) {
                claimOffline();
                return;
            }
            boolean withBadge = BADGE_CHANNELS.contains(channel) && !notification.isPassThrough()
                    && (channel != Channel.HUAWEI || notification.channelSettings(channel).hasNonNull("badge_class"));
            long[] deviceIds = batch.targets().stream().mapToLong(Target::deviceId).toArray();
            Claimed found = database.inTransaction(c -> {
                BatchLedger.Claim claim = ledger.claim(c, batch.taskId(), batch.batchNo());
                boolean sending = claim == BatchLedger.Claim.FRESH || claim == BatchLedger.Claim.RESUMED;
                return new Claimed(claim, withBadge && sending
                        ? ledger.badges(c, claim, batch.message().path("badge").asText("+1"), deviceIds) : Map.of());
            });
            switch (found.claim) {
                case HELD -> {
                    // another live worker sends it (a rebalance gave both the record): its outcome, or its lease
                    // lapsing
                    LOG.debugf("task %d batch %d is held by another worker: waiting", batch.taskId(), batch.batchNo());
                    later(leases.recheckHeld(), this::claim);
                }
                case DONE, TASK_GONE -> done.complete(null);
                case FRESH, RESUMED -> {
                    claimed = true;
                    deliver(found.badges);
                }
            }
        }

        /** An offline push record: its devices' trace rows are the claim (docs/offline-push.md). */
        private void claimOffline() {
            OfflineLedger.Claimed found = database.inTransaction(c -> offlineLedger.claim(c, batch));
            if (found.devices().isEmpty()) {
                if (found.held()) {
                    later(leases.recheckHeld(), this::claim);
                } else {
                    done.complete(null);
                }
                return;
            }
            claimed = true;
            offlineDevices = found.devices();
            othersHold = found.held();
            deliver(OfflineLedger.badges(batch));
        }

        private void deliver(Map<Long, Integer> badges) {
            if (deadline != null && Instant.now().isAfter(deadline)) {
                tally.failed(channel, SHOW_END_TIME_PASSED, batch.targets().size());
                metrics.targets(channel, Result.EXPIRED, batch.targets().size());
                finish(true);
                return;
            }
            List<Pending> pending = new ArrayList<>();
            for (Target target : batch.targets()) {
                if (batch.offline() != null && !offlineDevices.contains(target.deviceId())) {
                    continue;
                }
                pending.add(new Pending(new Delivery(target, target.token(), badges.get(target.deviceId())),
                        target.environment() == null ? 1 : target.environment()));
            }
            new ChannelSend(this, channel, pending, this::fallBack).nextGroup();
        }

        /**
         * svcpush targets whose device had no live connection: under combined (the record carries a fallback route)
         * they are sent on their OS channel and counted there instead; without one they failed.
         */
        private void fallBack(List<Pending> offline) {
            Map<Channel, List<Pending>> byChannel = new LinkedHashMap<>();
            for (Pending p : offline) {
                PushBatch.OsRoute route = p.delivery.target().fallback();
                Optional<Channel> os = route == null ? Optional.empty() : Channel.fromWireName(route.channel());
                if (os.isEmpty()) {
                    tally.failed(Channel.SVCPUSH, "offline, no OS channel to fall back to", 1);
                    metrics.targets(Channel.SVCPUSH, Result.FAILED, 1);
                    continue;
                }
                byChannel.computeIfAbsent(os.get(), c -> new ArrayList<>()).add(new Pending(
                        new Delivery(p.delivery.target(), route.token(), p.delivery.badge()), route.environment()));
            }
            fallBackOn(byChannel.entrySet().iterator());
        }

        /** The fallbacks of one OS channel after the other, then the counts. */
        private void fallBackOn(Iterator<Map.Entry<Channel, List<Pending>>> channels) {
            if (!channels.hasNext()) {
                finish(false);
                return;
            }
            Map.Entry<Channel, List<Pending>> entry = channels.next();
            int moved = entry.getValue().size();
            tally.of(Channel.SVCPUSH).fallbackOut += moved;
            tally.of(entry.getKey()).fallbackIn += moved;
            metrics.targets(Channel.SVCPUSH, Result.FALLBACK, moved);
            new ChannelSend(this, entry.getKey(), entry.getValue(), none -> fallBackOn(channels)).nextGroup();
        }

        private void finish(boolean expired) {
            if (batch.offline() != null) {
                offlineLedger.finish(batch, offlineDevices, tally, channel.wireName());
                if (othersHold) {
                    // their holder may die before it finishes: wait for it, or take them over when its lease lapses
                    claimed = false;
                    offlineDevices = Set.of();
                    later(leases.recheckHeld(), this::claim);
                } else {
                    done.complete(null);
                }
                return;
            }
            if (!ledger.finish(batch.taskId(), batch.batchNo(), tally, expired)) {
                LOG.debugf("task %d batch %d was finished by another worker", batch.taskId(), batch.batchNo());
            }
            done.complete(null);
        }

        /** Ends the batch unfinished: its claim is released for the record's next reading. */
        void fail(Throwable failure) {
            if (claimed && batch.offline() != null) {
                offlineLedger.release(batch, offlineDevices);
            } else if (claimed) {
                ledger.release(batch.taskId(), batch.batchNo());
            }
            done.completeExceptionally(failure);
        }

        /** Runs {@code next} after {@code delay} without holding a sender thread meanwhile. */
        void later(Duration delay, Runnable next) {
            senders.after(delay, channel, next, this::fail);
        }
    }

    /**
     * The sends of one batch on one channel (its own, or an OS channel svcpush falls back to): per certificate
     * environment, rounds of requests of at most the provider's size, paced by the rate limits; the transient
     * failures of a round are sent again in the next one after a backoff. Hands the svcpush deliveries whose device
     * was offline to {@code then} (none for OS channels).
     */
    private final class ChannelSend {

        private final BatchRun run;
        private final Channel channel;
        private final ChannelAdapter adapter;
        private final Iterator<Map.Entry<Integer, List<Pending>>> groups;
        private final Consumer<List<Pending>> then;
        private final List<Pending> offline = new ArrayList<>();
        private Credentials creds;
        private List<Pending> left;
        private int attempt;
        private int from;
        private List<Pending> retry;
        private List<String> lastReasons; // why each of retry was refused, by index
        private Duration wait;

        ChannelSend(BatchRun run, Channel channel, List<Pending> all, Consumer<List<Pending>> then) {
            this.run = run;
            this.channel = channel;
            this.adapter = adapters.adapter(channel);
            this.then = then;
            Map<Integer, List<Pending>> byEnvironment = new LinkedHashMap<>();
            for (Pending p : all) {
                byEnvironment.computeIfAbsent(channel == Channel.SVCPUSH ? 0 : p.environment, e -> new ArrayList<>())
                        .add(p);
            }
            this.groups = byEnvironment.entrySet().iterator();
        }

        /** The next environment's deliveries, or {@code then} when none is left. */
        void nextGroup() {
            Notification notification = run.notification;
            while (groups.hasNext()) {
                Map.Entry<Integer, List<Pending>> group = groups.next();
                if (channel != Channel.SVCPUSH) {
                    Optional<Credentials> found = credentials.get(notification.appId(), channel, group.getKey());
                    if (found.isEmpty()) {
                        LOG.warnf("task %d: app %s has no %s certificate for environment %d: %d targets failed",
                                notification.taskId(), notification.appId(), channel.wireName(), group.getKey(),
                                group.getValue().size());
                        run.tally.failed(channel, "no certificate for environment " + group.getKey(),
                                group.getValue().size());
                        group.getValue().forEach(p -> run.tally.device(p.delivery.target().deviceId(), "failed",
                                "no certificate for environment " + group.getKey()));
                        metrics.targets(channel, Result.FAILED, group.getValue().size());
                        continue;
                    }
                    creds = found.get();
                }
                left = group.getValue();
                attempt = 1;
                startRound();
                return;
            }
            then.accept(offline);
        }

        private void startRound() {
            retry = new ArrayList<>();
            lastReasons = new ArrayList<>();
            wait = Duration.ZERO;
            from = 0;
            continueRound();
        }

        /** Sends the round's requests from {@code from} on; a rate limit in debt makes it continue later. */
        private void continueRound() {
            while (from < left.size()) {
                List<Pending> chunk = left.subList(from, Math.min(left.size(), from + adapter.maxTargetsPerRequest()));
                long pause = pacer.pause(channel, run.notification.appId(), chunk.size());
                if (pause > 0) {
                    run.later(Duration.ofNanos(pause), () -> {
                        send(chunk);
                        continueRound();
                    });
                    return;
                }
                send(chunk);
            }
            endRound();
        }

        private void send(List<Pending> chunk) {
            List<Delivery> deliveries = chunk.stream().map(Pending::delivery).toList();
            Credentials signWith = creds;
            List<Outcome> outcomes = metrics.calls(channel).record(
                    () -> adapter.send(signWith, run.notification, deliveries));
            Tally tally = run.tally;
            for (int i = 0; i < chunk.size(); i++) {
                Outcome outcome = outcomes.get(i);
                Pending p = chunk.get(i);
                switch (outcome.kind()) {
                    case ACCEPTED -> {
                        tally.of(channel).sent++;
                        tally.device(p.delivery.target().deviceId(), "sent", null);
                        metrics.targets(channel, Result.SENT, 1);
                    }
                    case REJECTED -> {
                        if (channel == Channel.SVCPUSH) {
                            offline.add(p);
                        } else {
                            tally.rejected(p.delivery.target().deviceId(), channel, p.delivery.token(),
                                    outcome.reason());
                            metrics.targets(channel, Result.REJECTED, 1);
                        }
                    }
                    case FAILED -> {
                        tally.failed(channel, outcome.reason(), 1);
                        tally.device(p.delivery.target().deviceId(), "failed", outcome.reason());
                        metrics.targets(channel, Result.FAILED, 1);
                    }
                    case RETRY -> {
                        retry.add(p);
                        lastReasons.add(outcome.reason());
                        if (outcome.retryAfter() != null && outcome.retryAfter().compareTo(wait) > 0) {
                            wait = outcome.retryAfter();
                        }
                    }
                }
            }
            from += chunk.size();
        }

        /** After a round: the next environment, or the failed ones sent again after a backoff, or given up. */
        private void endRound() {
            if (retry.isEmpty()) {
                nextGroup();
                return;
            }
            Notification notification = run.notification;
            boolean pastDeadline = run.deadline != null && Instant.now().plus(wait).isAfter(run.deadline);
            boolean waitTooLong = wait.compareTo(config.maxRetryAfter()) > 0;
            if (waitTooLong) {
                LOG.warnf("task %d: %s asked to retry %d targets after %s (more than max-retry-after): failed",
                        notification.taskId(), channel.wireName(), retry.size(), wait);
            }
            if (attempt >= config.maxAttempts() || pastDeadline || waitTooLong) {
                if (pastDeadline) {
                    run.tally.failed(channel, SHOW_END_TIME_PASSED, retry.size());
                } else {
                    lastReasons.forEach(reason -> run.tally.failed(channel, reason, 1));
                }
                for (int i = 0; i < retry.size(); i++) {
                    run.tally.device(retry.get(i).delivery.target().deviceId(), "failed",
                            pastDeadline ? SHOW_END_TIME_PASSED : lastReasons.get(i));
                }
                metrics.targets(channel, pastDeadline ? Result.EXPIRED : Result.FAILED, retry.size());
                nextGroup();
                return;
            }
            metrics.retried(channel, retry.size());
            LOG.infof("task %d: %d %s targets to send again after attempt %d: %s", notification.taskId(),
                    retry.size(), channel.wireName(), attempt, countsOf(lastReasons));
            List<Pending> again = retry;
            run.later(max(wait, backoff(attempt)), () -> {
                left = again;
                attempt++;
                startRound();
            });
        }
    }

    /** Exponential from initial-backoff, capped at max-backoff, with full jitter in its upper half. */
    private Duration backoff(int attempt) {
        long base = config.initialBackoff().toMillis() << Math.min(attempt - 1, 20);
        long capped = Math.min(base, config.maxBackoff().toMillis());
        return Duration.ofMillis(capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
    }

    /** "reason x count" per distinct reason, most frequent first: one log line for a batch's retries. */
    private static String countsOf(List<String> reasons) {
        Map<String, Long> counts = reasons.stream()
                .collect(Collectors.groupingBy(r -> r, LinkedHashMap::new, Collectors.counting()));
        return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + " x" + e.getValue()).collect(Collectors.joining(", "));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}

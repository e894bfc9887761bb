package io.imcore.pushworker.dispatch;

import io.imcore.common.push.Channel;
import io.imcore.common.push.PushBatch;
import io.imcore.common.push.PushBatch.Target;
import io.imcore.common.store.Database;
import io.imcore.pushworker.channel.AdapterRegistry;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.config.WorkerConfig;
import io.imcore.pushworker.dispatch.WorkerMetrics.Result;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Sends one channel record (a batch of one task) and counts it: claim, badges, the adapter calls with retries and
 * rate limits, the svcpush fallback to OS channels, then the counts in one transaction (docs/push-worker.md).
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
            EnumSet.of(Channel.IOS, Channel.CLOUD, Channel.VENDOR_A, Channel.SVCPUSH);

    private static final Logger LOG = Logger.getLogger(BatchDispatcher.class);
    /** The failure reason of targets not sent because the message's show_end_time came first. */
    static final String SHOW_END_TIME_PASSED = "show_end_time passed";

    private final Database database;
    private final BatchLedger ledger;
    private final AdapterRegistry adapters;
    private final CredentialCache credentials;
    private final WorkerMetrics metrics;
    private final WorkerConfig config;
    private final Map<Channel, RateLimiter> channelLimits = new ConcurrentHashMap<>();
    private final Map<String, RateLimiter> appLimits = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    public BatchDispatcher(Database database, BatchLedger ledger, AdapterRegistry adapters,
            CredentialCache credentials, WorkerMetrics metrics, WorkerConfig config) {
        this.database = database;
        this.ledger = ledger;
        this.adapters = adapters;
        this.credentials = credentials;
        this.metrics = metrics;
        this.config = config;
    }

    /** From now on, retries are not waited for: unfinished batches are abandoned (and redelivered elsewhere). */
    void stop() {
        stopping = true;
    }

    /**
     * Processes the batch unless it was counted before. Throws on a database failure (the record is then read again)
     * and {@link Abandoned} when stopping.
     */
    void process(PushBatch batch) throws InterruptedException {
        Optional<Channel> parsed = Channel.fromWireName(batch.channel());
        if (parsed.isEmpty()) {
            LOG.errorf("task %d batch %d: unknown channel %s, skipped", batch.taskId(), batch.batchNo(),
                    batch.channel());
            return;
        }
        Channel channel = parsed.get();
        Notification notification = new Notification(batch.taskId(), batch.appId(), batch.message());
        boolean withBadge = BADGE_CHANNELS.contains(channel) && !notification.isPassThrough()
                && (channel != Channel.VENDOR_A || notification.channelSettings(channel).hasNonNull("badge_class"));
        long[] deviceIds = batch.targets().stream().mapToLong(Target::deviceId).toArray();
        Claimed claimed;
        while (true) {
            claimed = database.inTransaction(c -> {
                BatchLedger.Claim claim = ledger.claim(c, batch.taskId(), batch.batchNo());
                boolean sending = claim == BatchLedger.Claim.FRESH || claim == BatchLedger.Claim.RESUMED;
                return new Claimed(claim, withBadge && sending
                        ? ledger.badges(c, claim, batch.message().path("badge").asText("+1"), deviceIds) : Map.of());
            });
            if (claimed.claim != BatchLedger.Claim.HELD) {
                break;
            }
            // another live worker sends it (a rebalance gave both the record): its outcome, or its lease lapsing
            LOG.debugf("task %d batch %d is held by another worker: waiting", batch.taskId(), batch.batchNo());
            sleep(ledger.lease().dividedBy(10));
        }
        if (claimed.claim == BatchLedger.Claim.DONE || claimed.claim == BatchLedger.Claim.TASK_GONE) {
            return;
        }
        try {
            deliver(batch, channel, notification, claimed.badges);
        } catch (InterruptedException | RuntimeException e) {
            ledger.release(batch.taskId(), batch.batchNo());
            throw e;
        }
    }

    /** Sends a claimed batch and counts it. */
    private void deliver(PushBatch batch, Channel channel, Notification notification, Map<Long, Integer> badges)
            throws InterruptedException {
        Instant deadline = batch.showEndTime() == null ? null : Instant.ofEpochSecond(batch.showEndTime());

        Tally tally = new Tally();
        boolean expired = deadline != null && Instant.now().isAfter(deadline);
        if (expired) {
            tally.failed(channel, SHOW_END_TIME_PASSED, batch.targets().size());
            metrics.targets(channel, Result.EXPIRED, batch.targets().size());
        } else {
            List<Pending> pending = new ArrayList<>();
            for (Target target : batch.targets()) {
                pending.add(new Pending(new Delivery(target, target.token(), badges.get(target.deviceId())),
                        target.environment() == null ? 1 : target.environment()));
            }
            List<Pending> offline = send(channel, notification, pending, tally, deadline);
            fallBack(notification, offline, tally, deadline);
        }
        if (!ledger.finish(batch.taskId(), batch.batchNo(), tally, expired)) {
            LOG.debugf("task %d batch %d was finished by another worker", batch.taskId(), batch.batchNo());
        }
    }

    /** Where the batch stands, and its devices' badge numbers (empty for channels without a badge). */
    private record Claimed(BatchLedger.Claim claim, Map<Long, Integer> badges) {}

    /** A delivery with the environment of the certificate to send it with. */
    private record Pending(Delivery delivery, int environment) {}

    /**
     * Sends on one channel, retrying transient failures. Returns the svcpush deliveries whose device was offline
     * (empty for OS channels).
     */
    private List<Pending> send(Channel channel, Notification notification, List<Pending> all, Tally tally,
            Instant deadline) throws InterruptedException {
        Map<Integer, List<Pending>> byEnvironment = new LinkedHashMap<>();
        for (Pending p : all) {
            byEnvironment.computeIfAbsent(channel == Channel.SVCPUSH ? 0 : p.environment, e -> new ArrayList<>())
                    .add(p);
        }
        List<Pending> offline = new ArrayList<>();
        ChannelAdapter adapter = adapters.adapter(channel);
        for (Map.Entry<Integer, List<Pending>> group : byEnvironment.entrySet()) {
            Credentials creds = null;
            if (channel != Channel.SVCPUSH) {
                Optional<Credentials> found = credentials.get(notification.appId(), channel, group.getKey());
                if (found.isEmpty()) {
                    LOG.warnf("task %d: app %s has no %s certificate for environment %d: %d targets failed",
                            notification.taskId(), notification.appId(), channel.wireName(), group.getKey(),
                            group.getValue().size());
                    tally.failed(channel, "no certificate for environment " + group.getKey(),
                            group.getValue().size());
                    metrics.targets(channel, Result.FAILED, group.getValue().size());
                    continue;
                }
                creds = found.get();
            }
            List<Pending> left = group.getValue();
            for (int attempt = 1; !left.isEmpty(); attempt++) {
                List<Pending> retry = new ArrayList<>();
                List<String> lastReasons = new ArrayList<>(); // why each of retry was refused, by index
                Duration wait = Duration.ZERO;
                for (int from = 0; from < left.size(); from += adapter.maxTargetsPerRequest()) {
                    List<Pending> chunk = left.subList(from, Math.min(left.size(), from + adapter.maxTargetsPerRequest()));
                    pace(channel, notification.appId(), chunk.size());
                    List<Delivery> deliveries = chunk.stream().map(Pending::delivery).toList();
                    Credentials signWith = creds;
                    List<Outcome> outcomes = metrics.calls(channel).record(
                            () -> adapter.send(signWith, notification, deliveries));
                    for (int i = 0; i < chunk.size(); i++) {
                        Outcome outcome = outcomes.get(i);
                        Pending p = chunk.get(i);
                        switch (outcome.kind()) {
                            case ACCEPTED -> {
                                tally.of(channel).sent++;
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
                }
                if (retry.isEmpty()) {
                    break;
                }
                boolean pastDeadline = deadline != null && Instant.now().plus(wait).isAfter(deadline);
                boolean waitTooLong = wait.compareTo(config.maxRetryAfter()) > 0;
                if (waitTooLong) {
                    LOG.warnf("task %d: %s asked to retry %d targets after %s (more than max-retry-after): failed",
                            notification.taskId(), channel.wireName(), retry.size(), wait);
                }
                if (attempt >= config.maxAttempts() || pastDeadline || waitTooLong) {
                    if (pastDeadline) {
                        tally.failed(channel, SHOW_END_TIME_PASSED, retry.size());
                    } else {
                        lastReasons.forEach(reason -> tally.failed(channel, reason, 1));
                    }
                    metrics.targets(channel, pastDeadline ? Result.EXPIRED : Result.FAILED, retry.size());
                    break;
                }
                metrics.retried(channel, retry.size());
                LOG.infof("task %d: %d %s targets to send again after attempt %d: %s", notification.taskId(),
                        retry.size(), channel.wireName(), attempt, countsOf(lastReasons));
                sleep(max(wait, backoff(attempt)));
                left = retry;
            }
        }
        return offline;
    }

    /**
     * svcpush targets whose device had no live connection: under combined (the record carries a fallback route)
     * they are sent on their OS channel and counted there instead; without one they failed.
     */
    private void fallBack(Notification notification, List<Pending> offline, Tally tally, Instant deadline)
            throws InterruptedException {
        Map<Channel, List<Pending>> byChannel = new LinkedHashMap<>();
        for (Pending p : offline) {
            PushBatch.OsRoute route = p.delivery.target().fallback();
            Optional<Channel> channel = route == null ? Optional.empty() : Channel.fromWireName(route.channel());
            if (channel.isEmpty()) {
                tally.failed(Channel.SVCPUSH, "offline, no OS channel to fall back to", 1);
                metrics.targets(Channel.SVCPUSH, Result.FAILED, 1);
                continue;
            }
            byChannel.computeIfAbsent(channel.get(), c -> new ArrayList<>()).add(new Pending(
                    new Delivery(p.delivery.target(), route.token(), p.delivery.badge()), route.environment()));
        }
        for (Map.Entry<Channel, List<Pending>> entry : byChannel.entrySet()) {
            int moved = entry.getValue().size();
            tally.of(Channel.SVCPUSH).fallbackOut += moved;
            tally.of(entry.getKey()).fallbackIn += moved;
            metrics.targets(Channel.SVCPUSH, Result.FALLBACK, moved);
            send(entry.getKey(), notification, entry.getValue(), tally, deadline);
        }
    }

    private void pace(Channel channel, String appId, int targets) throws InterruptedException {
        WorkerConfig.ChannelConfig limits = config.channel().get(channel.wireName());
        if (limits.rate() > 0) {
            channelLimits.computeIfAbsent(channel, c -> new RateLimiter(limits.rate())).acquire(targets);
        }
        if (limits.appRate() > 0) {
            appLimits.computeIfAbsent(channel.wireName() + "/" + appId, k -> new RateLimiter(limits.appRate()))
                    .acquire(targets);
        }
    }

    /** Exponential from initial-backoff, capped at max-backoff, with full jitter in its upper half. */
    private Duration backoff(int attempt) {
        long base = config.initialBackoff().toMillis() << Math.min(attempt - 1, 20);
        long capped = Math.min(base, config.maxBackoff().toMillis());
        return Duration.ofMillis(capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
    }

    private void sleep(Duration wait) throws InterruptedException {
        long until = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < until) {
            if (stopping) {
                throw new Abandoned();
            }
            Thread.sleep(Math.min(100, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
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

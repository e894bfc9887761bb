package io.imcore.pushworker.batch;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.AdapterRegistry;
import io.imcore.pushworker.WorkerConfig;
import io.imcore.pushworker.batch.WorkerMetrics.Result;
import io.imcore.pushworker.certificate.CredentialCache;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The sends of a batch on one channel, its own or an OS channel svcpush falls back to (docs/push-worker.md "One
 * batch", Send): per certificate environment, requests of at most the provider's size paced by the rate limits;
 * the targets a round could not send for a transient reason go again in the next round after a backoff, until
 * max-attempts, max-retry-after or show_end_time gives them up. Its waits hold no sender thread.
 */
@ApplicationScoped
public class ChannelSender {

    /** A delivery with the environment of the certificate to send it with. */
    record EnvironmentDelivery(Delivery delivery, int environment) {}

    private static final Logger LOG = Logger.getLogger(ChannelSender.class);
    /** The failure reason of targets not sent because the message's show_end_time came first. */
    static final String SHOW_END_TIME_PASSED = "show_end_time passed";
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final AdapterRegistry adapters;
    private final CredentialCache credentials;
    private final DeliveryPacer pacer;
    private final SenderPool senders;
    private final WorkerMetrics metrics;
    private final WorkerConfig config;

    public ChannelSender(AdapterRegistry adapters, CredentialCache credentials, DeliveryPacer pacer,
            SenderPool senders, WorkerMetrics metrics, WorkerConfig config) {
        this.adapters = adapters;
        this.credentials = credentials;
        this.pacer = pacer;
        this.senders = senders;
        this.metrics = metrics;
        this.config = config;
    }

    /**
     * Sends the deliveries on the channel, one certificate environment after the other, and counts their outcomes in
     * the run's tally. Completes with the svcpush deliveries whose device had no live connection (none on OS
     * channels).
     */
    CompletableFuture<List<EnvironmentDelivery>> send(BatchRun run, Channel channel,
            List<EnvironmentDelivery> deliveries) {
        Send send = new Send(run, channel);
        Map<Integer, List<EnvironmentDelivery>> byEnvironment = new LinkedHashMap<>();
        for (EnvironmentDelivery p : deliveries) {
            byEnvironment.computeIfAbsent(channel == Channel.SVCPUSH ? 0 : p.environment, e -> new ArrayList<>())
                    .add(p);
        }
        CompletableFuture<Void> environments = DONE;
        for (Map.Entry<Integer, List<EnvironmentDelivery>> group : byEnvironment.entrySet()) {
            environments = environments.thenCompose(none -> send.environment(group.getKey(), group.getValue()));
        }
        return environments.thenApply(none -> send.notLive);
    }

    /** One {@link #send} call. */
    private final class Send {

        private final BatchRun run;
        private final Channel channel;
        private final ChannelAdapter adapter;
        private final List<EnvironmentDelivery> notLive = new ArrayList<>();

        Send(BatchRun run, Channel channel) {
            this.run = run;
            this.channel = channel;
            this.adapter = adapters.adapter(channel);
        }

        /** The deliveries of one certificate environment, with the app's certificate for it; without one they fail. */
        CompletableFuture<Void> environment(int environment, List<EnvironmentDelivery> deliveries) {
            Credentials certificate = null;
            if (channel != Channel.SVCPUSH) {
                Optional<Credentials> found = credentials.get(run.notification.appId(), channel, environment);
                if (found.isEmpty()) {
                    Notification notification = run.notification;
                    LOG.warnf("task %d: app %s has no %s certificate for environment %d: %d targets failed",
                            notification.taskId(), notification.appId(), channel.wireName(), environment,
                            deliveries.size());
                    String reason = "no certificate for environment " + environment;
                    run.tally.failed(channel, reason, deliveries.size());
                    deliveries.forEach(p -> run.tally.device(p.delivery.target().deviceId(), "failed", reason));
                    metrics.targets(channel, Result.FAILED, deliveries.size());
                    return DONE;
                }
                certificate = found.get();
            }
            return round(new Round(certificate, deliveries, 1));
        }

        /** One attempt at the deliveries: their requests, then the ones to send again after a backoff, or given up. */
        private CompletableFuture<Void> round(Round round) {
            return requests(round, 0).thenCompose(none -> afterRound(round));
        }

        /** The round's requests from its {@code from}th delivery on; a rate limit in debt makes them continue later. */
        private CompletableFuture<Void> requests(Round round, int from) {
            List<EnvironmentDelivery> all = round.deliveries;
            int at = from;
            while (at < all.size()) {
                List<EnvironmentDelivery> chunk =
                        all.subList(at, Math.min(all.size(), at + adapter.maxTargetsPerRequest()));
                at += chunk.size();
                long pause = pacer.pause(channel, run.notification.appId(), chunk.size());
                if (pause > 0) {
                    int next = at;
                    return senders.after(Duration.ofNanos(pause), run.channel).thenCompose(none -> {
                        request(round, chunk);
                        return requests(round, next);
                    });
                }
                request(round, chunk);
            }
            return DONE;
        }

        /** One adapter call; its outcomes counted, its transient failures kept for the next round. */
        private void request(Round round, List<EnvironmentDelivery> chunk) {
            List<Delivery> deliveries = chunk.stream().map(EnvironmentDelivery::delivery).toList();
            List<Outcome> outcomes = metrics.calls(channel).record(
                    () -> adapter.send(round.certificate, run.notification, deliveries));
            Tally tally = run.tally;
            for (int i = 0; i < chunk.size(); i++) {
                Outcome outcome = outcomes.get(i);
                EnvironmentDelivery p = chunk.get(i);
                switch (outcome.kind()) {
                    case ACCEPTED -> {
                        tally.of(channel).sent++;
                        tally.device(p.delivery.target().deviceId(), "sent", null);
                        metrics.targets(channel, Result.SENT, 1);
                    }
                    case REJECTED -> {
                        if (channel == Channel.SVCPUSH) {
                            notLive.add(p);
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
                        round.retry.add(p);
                        round.reasons.add(outcome.reason());
                        if (outcome.retryAfter() != null && outcome.retryAfter().compareTo(round.wait) > 0) {
                            round.wait = outcome.retryAfter();
                        }
                    }
                }
            }
        }

        /** After a round: done, or its transient failures sent again after a backoff, or given up. */
        private CompletableFuture<Void> afterRound(Round round) {
            List<EnvironmentDelivery> retry = round.retry;
            if (retry.isEmpty()) {
                return DONE;
            }
            Notification notification = run.notification;
            boolean pastDeadline = run.deadline != null && Instant.now().plus(round.wait).isAfter(run.deadline);
            boolean waitTooLong = round.wait.compareTo(config.maxRetryAfter()) > 0;
            if (waitTooLong) {
                LOG.warnf("task %d: %s asked to retry %d targets after %s (more than max-retry-after): failed",
                        notification.taskId(), channel.wireName(), retry.size(), round.wait);
            }
            if (round.attempt >= config.maxAttempts() || pastDeadline || waitTooLong) {
                if (pastDeadline) {
                    run.tally.failed(channel, SHOW_END_TIME_PASSED, retry.size());
                } else {
                    round.reasons.forEach(reason -> run.tally.failed(channel, reason, 1));
                }
                for (int i = 0; i < retry.size(); i++) {
                    run.tally.device(retry.get(i).delivery.target().deviceId(), "failed",
                            pastDeadline ? SHOW_END_TIME_PASSED : round.reasons.get(i));
                }
                metrics.targets(channel, pastDeadline ? Result.EXPIRED : Result.FAILED, retry.size());
                return DONE;
            }
            metrics.retried(channel, retry.size());
            LOG.infof("task %d: %d %s targets to send again after attempt %d: %s", notification.taskId(),
                    retry.size(), channel.wireName(), round.attempt, countsOf(round.reasons));
            return senders.after(max(round.wait, backoff(round.attempt)), run.channel)
                    .thenCompose(none -> round(new Round(round.certificate, retry, round.attempt + 1)));
        }
    }

    /** One attempt at some deliveries of one environment, and what it left to send again. */
    private static final class Round {

        final Credentials certificate;
        final List<EnvironmentDelivery> deliveries;
        final int attempt;
        final List<EnvironmentDelivery> retry = new ArrayList<>();
        /** Why each of {@link #retry} was refused, by index. */
        final List<String> reasons = new ArrayList<>();
        /** The longest Retry-After the provider asked for. */
        Duration wait = Duration.ZERO;

        Round(Credentials certificate, List<EnvironmentDelivery> deliveries, int attempt) {
            this.certificate = certificate;
            this.deliveries = deliveries;
            this.attempt = attempt;
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

package io.imcore.pushworker;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** push-worker's settings, {@code im.push.worker.*} (docs/push-worker.md has the table). */
@ConfigMapping(prefix = "im.push.worker")
public interface WorkerConfig {

    /** The channels whose topics this replica consumes (a deployment can dedicate replicas to a slow channel). */
    @WithDefault("ios,cloud,vendor_a,vendor_b,vendor_c,vendor_d,vendor_e,svcpush")
    List<String> channels();

    /** Records (batches) of one channel processed at once by a replica: the in-flight bound per channel. */
    @WithDefault("8")
    int batchesInFlight();

    /**
     * Threads that send the batches of every channel. Keep it above batches-in-flight: a channel whose provider
     * stops answering holds at most batches-in-flight of them; waits (backoff, rate limits) hold none.
     */
    @WithDefault("8")
    int senders();

    /** Sends of one target before it is counted as failed. */
    @WithDefault("5")
    int maxAttempts();

    @WithDefault("500ms")
    Duration initialBackoff();

    @WithDefault("30s")
    Duration maxBackoff();

    /**
     * The longest Retry-After a batch waits for. A provider asking for more (a daily quota spent: "retry tomorrow")
     * gets its targets counted failed at once, so the batch does not hold one of the in-flight slots for hours.
     */
    @WithDefault("2m")
    Duration maxRetryAfter();

    /**
     * How long a claim on a batch stands without renewal. The holder renews its claims every third of it; a batch
     * whose holder died is taken over by another replica after at most this long.
     */
    @WithDefault("30s")
    Duration claimLease();

    /** This replica's name on its claims (Kubernetes: the pod name); empty: a random one per start. */
    Optional<String> replicaId();

    /** How long a decrypted certificate is used before it is read again (a re-upload is seen within this). */
    @WithDefault("30s")
    Duration credentialsTtl();

    /** Per channel (wire name): the provider endpoints and limits. */
    Map<String, ChannelConfig> channel();

    interface ChannelConfig {

        /** The provider's push API (production). */
        URI baseUrl();

        /** The push API for environment 0 (development) where the provider has a separate one. */
        Optional<URI> developmentBaseUrl();

        /** The provider's auth/token endpoint where it is separate from the push API. */
        Optional<URI> authUrl();

        /** push-service's receipt endpoint for this channel, asked of providers that call back on delivery. */
        Optional<URI> receiptUrl();

        /** A PEM CA certificate to trust besides the JDK's (a simulator's self-signed one). */
        Optional<Path> trustCertificate();

        @WithDefault("10s")
        Duration requestTimeout();

        /** Open requests per send call, for per-token APIs. */
        @WithDefault("64")
        int maxConcurrentRequests();

        /** Deliveries per second over all apps from this replica; 0 = no limit. */
        @WithDefault("0")
        double rate();

        /** Deliveries per second per app from this replica (the provider's per-app quota); 0 = no limit. */
        @WithDefault("0")
        double appRate();
    }
}

package io.imcore.pushworker.channel;

import io.imcore.common.push.Channel;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where and how an adapter reaches its provider, from {@code im.push.worker.channel.<channel>.*}
 * (docs/push-worker.md). The defaults are the providers' production endpoints; the local stack and the tests point
 * them at the simulators.
 *
 * @param baseUrl               the push API (production environment)
 * @param developmentBaseUrl    the push API for environment 0 where the provider has one (APNs sandbox), else
 *                              the same as baseUrl
 * @param authUrl               the provider's separate auth/token endpoint where it has one, else empty
 * @param receiptUrl            push-service's delivery-receipt endpoint for this channel
 *                              ({@code <push-service>/push/receipt/<channel>}) to ask the provider to call back,
 *                              or empty: then no receipt is requested
 * @param trustCertificate      a PEM file of a CA to trust besides the JDK's (a simulator's self-signed one)
 * @param requestTimeout        one provider request, connect included
 * @param maxConcurrentRequests requests an adapter has open at once per send call (per-token APIs)
 */
public record ChannelSettings(
        Channel channel,
        URI baseUrl,
        URI developmentBaseUrl,
        Optional<URI> authUrl,
        Optional<URI> receiptUrl,
        Optional<Path> trustCertificate,
        Duration requestTimeout,
        int maxConcurrentRequests) {

    public URI baseUrl(int environment) {
        return environment == 0 ? developmentBaseUrl : baseUrl;
    }
}

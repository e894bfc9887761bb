package io.imcore.pushworker.channel;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.ReceiptCallback;
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
 *                              ({@code <push-service>/push/receipt/<channel>}), or empty: then no receipt is
 *                              requested; each app's callback adds its id and key ({@link #receiptUrl(Credentials)})
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

    /** The app's callback URL, or empty when the channel has no receipt endpoint or the app no receipt key. */
    public Optional<URI> receiptUrl(Credentials credentials) {
        return credentials.receiptKey() == null ? Optional.empty()
                : receiptUrl.map(endpoint -> ReceiptCallback.url(endpoint.toString(), credentials.appId(),
                        credentials.receiptKey()));
    }

    public URI baseUrl(int environment) {
        return environment == 0 ? developmentBaseUrl : baseUrl;
    }
}

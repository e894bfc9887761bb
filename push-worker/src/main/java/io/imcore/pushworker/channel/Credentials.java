package io.imcore.pushworker.channel;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;

/**
 * An app's decrypted certificate for one channel and environment (docs/push-certificates.md has what each field
 * means per provider).
 *
 * @param appId         our app (the tenant), not the provider's app id
 * @param environment   0 development, 1 production
 * @param providerAppId the certificate's {@code app_id} field
 * @param version       changes whenever the certificate is uploaded again (its update time, epoch microseconds)
 * @param messageDefaults the certificate's {@code message_defaults}: the app's default message options for this
 *                      provider (category and the like), used where a push sets none; empty when none
 * @param receiptKey    the app's receipt key (push_apps), put in the callback URL providers are asked to call; null
 *                      when the app has none: then no receipt is asked for
 */
public record Credentials(
        String appId,
        Channel channel,
        int environment,
        String name,
        String providerAppId,
        String appKey,
        String appSecret,
        String certificate,
        long version,
        ObjectNode messageDefaults,
        String receiptKey) {

    /** Credentials without a receipt key. */
    public Credentials(String appId, Channel channel, int environment, String name, String providerAppId,
            String appKey, String appSecret, String certificate, long version, ObjectNode messageDefaults) {
        this(appId, channel, environment, name, providerAppId, appKey, appSecret, certificate, version,
                messageDefaults, null);
    }

    /** Credentials without message defaults. */
    public Credentials(String appId, Channel channel, int environment, String name, String providerAppId,
            String appKey, String appSecret, String certificate, long version) {
        this(appId, channel, environment, name, providerAppId, appKey, appSecret, certificate, version,
                JsonNodeFactory.instance.objectNode());
    }

    /** Key for an adapter's per-credentials state (clients, access tokens): a new upload gives a new key. */
    public String cacheKey() {
        return appId + "/" + environment + "/" + version;
    }

    @Override
    public String toString() { // never print the secrets
        return "Credentials[" + appId + " " + channel.wireName() + " env " + environment + " " + name + "]";
    }
}

package io.imcore.push.certificate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;

/**
 * One app's credentials for one provider and environment, secrets in plain text; a field sent without a value is
 * empty. What each field means per provider is in docs/push-certificates.md.
 *
 * @param appId           the provider-side app id (column provider_app_id), not our app
 * @param messageDefaults the app's default message options for this provider (io.imcore.push.notify.MessageOptions),
 *                        an empty object when none
 */
public record Certificate(Channel channel, int environment, String name, String appId, String appKey,
        String appSecret, String certificate, ObjectNode messageDefaults) {}

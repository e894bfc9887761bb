package io.imcore.message.moderation;

import io.imcore.message.webhook.WebhookEndpoint;

/**
 * What a send of an app must go through, read in one statement and cached ({@link Moderation}): its word filter
 * and its endpoint when it has a before-send hook; {@code hookAddressAllowed} is the address check made when this
 * was read (a host may change what it resolves to).
 */
record ModerationSettings(WordFilter filter, WebhookEndpoint hook, boolean hookAddressAllowed) {

    static final ModerationSettings NONE = new ModerationSettings(null, null, false);

    boolean none() {
        return filter == null && hook == null;
    }
}

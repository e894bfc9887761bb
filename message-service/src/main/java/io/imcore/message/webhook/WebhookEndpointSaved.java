package io.imcore.message.webhook;

/** An app's endpoint was saved: whoever caches it on this replica reads it again. */
public record WebhookEndpointSaved(String appId) {}

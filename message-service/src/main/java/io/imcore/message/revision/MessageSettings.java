package io.imcore.message.revision;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An app's message settings (POST|GET /app/message_settings): how long after sending the sender may recall a message
 * and edit a text, in seconds. In a POST an absent field is the service's default; a GET shows the windows in force.
 */
@RegisterForReflection
public record MessageSettings(Integer recallWindowSeconds, Integer editWindowSeconds) {}

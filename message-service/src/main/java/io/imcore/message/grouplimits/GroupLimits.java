package io.imcore.message.grouplimits;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An app's group-size limits of the live features, the body and answer of /app/group_limits: read frames to a
 * message's sender and typing frames are sent in groups of at most these many members.
 */
@RegisterForReflection
public record GroupLimits(Integer receiptFramesMaxMembers, Integer typingMaxMembers) {}

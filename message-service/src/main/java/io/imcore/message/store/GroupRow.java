package io.imcore.message.store;

/** A group; ownerId is the member with role owner, or null when the group has none. */
public record GroupRow(long groupId, long conversationId, String name, String description, String avatar,
        Long ownerId, int memberCount, long createdAtMs, boolean destroyed) {}

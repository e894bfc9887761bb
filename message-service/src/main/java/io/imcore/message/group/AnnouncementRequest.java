package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /group/announcement; null or "" removes it. */
@RegisterForReflection
public record AnnouncementRequest(Long groupId, String announcement) {}

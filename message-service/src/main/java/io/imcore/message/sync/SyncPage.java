package io.imcore.message.sync;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** GET /message/sync: the events after the cursor, the cursor to read on from, and whether more are there now. */
@RegisterForReflection
@JsonPropertyOrder({"events", "cursor", "has_more"})
public record SyncPage(List<SyncEvent> events, String cursor, boolean hasMore) {}

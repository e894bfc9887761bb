package io.imcore.message.changelog;

import java.util.List;

/**
 * A change as written: its user's position, and the replicas holding a live connection of that user, read after
 * the user's log was locked (docs/live-protocol.md "Replay"). What the live announcement needs after the commit.
 */
public record Logged(Change change, long position, List<String> replicas) {}

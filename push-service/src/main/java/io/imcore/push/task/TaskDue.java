package io.imcore.push.task;

/**
 * A task was stored due now (accepted, not scheduled): fired by {@link TaskService#accept} after the task is
 * committed, so that an idle expander (fanout's Expander observes it) starts it without waiting for its next poll.
 */
public record TaskDue(long taskId) {}

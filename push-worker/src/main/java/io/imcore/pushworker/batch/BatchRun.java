package io.imcore.pushworker.batch;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushworker.channel.Notification;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One channel record on its way through {@link BatchDispatcher}'s stages, and what this worker holds of it: the part
 * it claimed (the whole of a task batch, the claimed devices of an offline push record), their badges, and what
 * sending them came to. Each stage hands it to the next; one stage at a time works on it.
 */
final class BatchRun {

    final PushBatch batch;
    /** How a record of its kind is claimed and counted. */
    final RecordClaims claims;
    /** The record's channel: its waits and their CPU time count for it (a svcpush batch's fallback sends too). */
    final Channel channel;
    final Notification notification;
    /** show_end_time: nothing is sent after it; null when the message has none. */
    final Instant deadline;

    /** From a claim to its counts: what a failure releases. */
    boolean holding;
    /** The devices this worker claimed of an offline push record; null for a task batch (every target). */
    Set<Long> devices;
    /** An offline push record of which another live worker holds other devices: claimed again after ours. */
    boolean othersHold;
    /** The devices' badge numbers (none for channels without a badge). */
    Map<Long, Integer> badges;
    /** What the claimed part came to, counted by the last stage. */
    Tally tally;
    /** Read after its show_end_time: nothing was sent. */
    boolean expired;
    /** svcpush deliveries whose device had no live connection: the fallback sends them on their OS channel. */
    List<ChannelSender.EnvironmentDelivery> notLive = List.of();

    BatchRun(PushBatch batch, Channel channel, RecordClaims claims) {
        this.batch = batch;
        this.channel = channel;
        this.claims = claims;
        this.notification = new Notification(claims.notificationId(batch), batch.appId(), batch.message());
        this.deadline = batch.showEndTime() == null ? null : Instant.ofEpochSecond(batch.showEndTime());
    }

    /** A claim: this worker now sends {@code devices} (null: every target) with these badges, until it counts them. */
    void claimed(Set<Long> devices, boolean othersHold, Map<Long, Integer> badges) {
        this.holding = true;
        this.devices = devices;
        this.othersHold = othersHold;
        this.badges = badges;
        this.tally = new Tally();
        this.expired = false;
        this.notLive = List.of();
    }

    /** Counted: nothing of the record is held any more. */
    void counted() {
        holding = false;
    }
}

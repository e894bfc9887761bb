package io.imcore.push.task;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;
import org.hibernate.annotations.Immutable;

/**
 * A task's counters on one channel ({@code push_task_counts}), read for task/detail. Read-only here: the expansion
 * and push-worker add to them in their own statements.
 */
@Entity
@Table(name = "push_task_counts")
@IdClass(PushTaskCount.Key.class)
@Immutable
public class PushTaskCount {

    @Id
    public Long taskId;

    @Id
    public String channel;

    public int target;
    public int sent;
    public int received;
    public int failed;
    public int rejected;
    public int fallbackIn;
    public int fallbackOut;

    /** The targets the channel ended up with: the expansion's, less those moved away by fallback, plus those moved in. */
    public int effectiveTarget() {
        return target - fallbackOut + fallbackIn;
    }

    public static class Key implements Serializable {
        public Long taskId;
        public String channel;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(taskId, k.taskId) && Objects.equals(channel, k.channel);
        }

        @Override
        public int hashCode() {
            return Objects.hash(taskId, channel);
        }
    }
}

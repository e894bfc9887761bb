package io.imcore.push.task;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;
import org.hibernate.annotations.Immutable;

/** How many targets of a task's channel ended failed or rejected for one reason ({@code push_task_failures}, push-worker's). */
@Entity
@Table(name = "push_task_failures")
@IdClass(PushTaskFailure.Key.class)
@Immutable
public class PushTaskFailure {

    @Id
    public Long taskId;

    @Id
    public String channel;

    @Id
    public String outcome;

    @Id
    public String reason;

    public int count;

    public static class Key implements Serializable {
        public Long taskId;
        public String channel;
        public String outcome;
        public String reason;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(taskId, k.taskId) && Objects.equals(channel, k.channel)
                    && Objects.equals(outcome, k.outcome) && Objects.equals(reason, k.reason);
        }

        @Override
        public int hashCode() {
            return Objects.hash(taskId, channel, outcome, reason);
        }
    }
}

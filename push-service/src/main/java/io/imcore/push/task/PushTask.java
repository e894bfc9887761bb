package io.imcore.push.task;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.DynamicUpdate;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A push task ({@code push_tasks}), the one type of its rows: task/detail reads it through Panache ({@link TaskStore}),
 * the expansion through {@link TaskStore#load}'s plain SQL into a detached instance. Every write is a single SQL
 * statement: the accept's insert (TaskStore.insertIfEnabled, one round trip, docs/architecture.md), and the state, the
 * expansion's checkpoint and push-worker's progress, which race with each other (docs/push-fanout.md).
 */
@Entity
@Table(name = "push_tasks")
@DynamicUpdate
public class PushTask {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long taskId;

    public String appId;

    /** A TaskState's wire name. */
    public String state;

    /** The normalized PushRequest as JSON. */
    @JdbcTypeCode(SqlTypes.JSON)
    public String request;

    public Instant showBeginAt;

    public Instant showEndAt;

    /** Set by the database (default now()) when the task is stored. */
    @Column(insertable = false, updatable = false)
    public Instant createdAt;

    /** The expansion's checkpoint, cursorDeviceId to batchesTotal, as mirrored from push.expansion. */
    @Column(insertable = false, updatable = false)
    public long cursorDeviceId;

    @Column(insertable = false, updatable = false)
    public int pages;

    @Column(insertable = false, updatable = false)
    public long devicesExpanded;

    @Column(insertable = false, updatable = false)
    public int batchesTotal;

    @Column(insertable = false, updatable = false)
    public int batchesDone;

    @Column(insertable = false, updatable = false)
    public String failureReason;

    @Column(insertable = false, updatable = false)
    public Instant finishedAt;

    /**
     * The push.expansion offset the mirrored checkpoint is up to (null until the expansion starts): a resume reads only
     * the checkpoints after it.
     */
    @Column(insertable = false, updatable = false)
    public Long checkpointOffset;
}

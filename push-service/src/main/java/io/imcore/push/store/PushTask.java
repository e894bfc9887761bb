package io.imcore.push.store;

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
 * A push task ({@code push_tasks}): its normalized request and times, written here when it is accepted. Its state
 * after that, the expansion's checkpoint and push-worker's progress are written by single SQL statements that race
 * with each other (docs/push-fanout.md), so the entity only reads those columns.
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
}

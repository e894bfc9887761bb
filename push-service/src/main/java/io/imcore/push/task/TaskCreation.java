package io.imcore.push.task;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.push.fanout.FanoutConfig;
import io.imcore.push.notify.PushRequest;
import io.imcore.push.store.PushTask;
import io.imcore.push.store.PushTaskRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.Optional;
import org.hibernate.Session;

/**
 * Stores a new task: the {@link PushTask} entity and, when the request has a request_id, its claim in
 * push_request_ids (plain SQL on the session's connection: the claim is decided by one {@code insert ... on
 * conflict} across replicas). Both are one transaction (TaskCreationTransactionTest).
 */
@ApplicationScoped
public class TaskCreation {

    private final PushTaskRepository tasks;
    private final TaskStore store;
    private final Session session;
    private final ObjectMapper mapper;
    private final FanoutConfig config;

    public TaskCreation(PushTaskRepository tasks, TaskStore store, Session session, ObjectMapper mapper,
            FanoutConfig config) {
        this.tasks = tasks;
        this.store = store;
        this.session = session;
        this.mapper = mapper;
        this.config = config;
    }

    /** The task a call answers with, and whether this call stored it. */
    public record Stored(long taskId, boolean isNew) {}

    @Transactional
    public Stored store(String appId, PushRequest request, TaskState state) {
        PushTask task = new PushTask();
        task.appId = appId;
        task.state = state.wireName();
        task.request = json(request);
        task.showBeginAt = instant(request.showBeginTime());
        task.showEndAt = instant(request.showEndTime());
        tasks.persist(task); // an identity column: inserted now, so the id is known
        if (request.requestId() != null) {
            Optional<Long> first = session.doReturningWork(c ->
                    store.claimRequestId(c, appId, request.requestId(), task.taskId, config.requestIdWindow()));
            if (first.isPresent()) {
                // a concurrent call with the same request_id won: nothing of ours stays
                QuarkusTransaction.setRollbackOnly();
                return new Stored(first.get(), false);
            }
        }
        return new Stored(task.taskId, true);
    }

    private String json(PushRequest request) {
        try {
            return mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a push request must serialize", e);
        }
    }

    private static Instant instant(Long epochSeconds) {
        return epochSeconds == null ? null : Instant.ofEpochSecond(epochSeconds);
    }
}

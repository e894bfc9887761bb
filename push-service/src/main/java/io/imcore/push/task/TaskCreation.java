package io.imcore.push.task;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.push.fanout.FanoutConfig;
import io.imcore.push.notify.PushRequest;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.hibernate.Session;

/**
 * Stores a new task: its push_tasks row, inserted only while the app's push is switched on
 * ({@link TaskStore#insertIfEnabled}), and, when the request has a request_id, its claim in push_request_ids (one
 * {@code insert ... on conflict} decides it across replicas). Without a request_id the insert runs alone with
 * auto-commit: one round trip. With one, the insert and the claim are one transaction (TaskCreationTransactionTest).
 */
@ApplicationScoped
public class TaskCreation {

    private final Database database;
    private final TaskStore store;
    private final Session session;
    private final ObjectMapper mapper;
    private final FanoutConfig config;

    public TaskCreation(Database database, TaskStore store, Session session, ObjectMapper mapper,
            FanoutConfig config) {
        this.database = database;
        this.store = store;
        this.session = session;
        this.mapper = mapper;
        this.config = config;
    }

    /** The task a call answers with, and whether this call stored it. */
    public record Stored(long taskId, boolean isNew) {}

    /** Stores the task; 12006 when push is switched off for the app. */
    public Stored store(String appId, PushRequest request, TaskState state) {
        if (request.requestId() == null) {
            return new Stored(database.autoCommit(c -> insert(c, appId, request, state)), true);
        }
        try {
            // the caller's transaction if there is one (tests), else a new one
            return QuarkusTransaction.joiningExisting().call(() -> session.doReturningWork(c -> {
                long taskId = insert(c, appId, request, state);
                Optional<Long> first = store.claimRequestId(c, appId, request.requestId(), taskId,
                        config.requestIdWindow());
                if (first.isPresent()) {
                    throw new ClaimedBefore(first.get()); // rolls back our insert
                }
                return new Stored(taskId, true);
            }));
        } catch (ClaimedBefore e) {
            // a concurrent call with the same request_id won: nothing of ours stays
            return new Stored(e.taskId, false);
        }
    }

    /** The request_id names another task: thrown out of the transaction so that it rolls back. */
    private static final class ClaimedBefore extends RuntimeException {
        private final long taskId;

        ClaimedBefore(long taskId) {
            super(null, null, false, false);
            this.taskId = taskId;
        }
    }

    private long insert(Connection c, String appId, PushRequest request, TaskState state) throws SQLException {
        return store.insertIfEnabled(c, appId, state, json(request), instant(request.showBeginTime()),
                instant(request.showEndTime())).orElseThrow(() -> new ApiException(ErrorCode.PUSH_NOT_ENABLED));
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

package io.imcore.auth.user;

import io.imcore.auth.AuthConfig;
import io.imcore.auth.event.AuthEvents;
import io.imcore.auth.user.UserStore.StoredLogin;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.DatabaseException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.events.AuthEvent;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * {@code POST /user/register/batch}: all or nothing within a budget, and idempotent per entry (docs/api-decisions.md
 * "Users"). Each entry costs one bcrypt, spent before any transaction opens (a transaction would hold a connection
 * for seconds): a new name is hashed, a stored one has its password checked, so that a retry of a batch whose answer
 * was lost answers each stored entry with its user_id. The new users are then inserted in one transaction. Past the
 * budget (im.auth.batch-register-budget, below the gateway's 9 s) the call stores nothing and answers 50003.
 */
@ApplicationScoped
public class BatchRegistration {

    static final String TAKEN = "username is already registered";

    private final UserStore users;
    private final PasswordHasher hasher;
    private final AuthEvents events;
    private final UserMetrics metrics;
    private final int maxEntries;
    private final Duration budget;

    public BatchRegistration(UserStore users, PasswordHasher hasher, AuthEvents events, UserMetrics metrics,
            AuthConfig config) {
        this.users = users;
        this.hasher = hasher;
        this.events = events;
        this.metrics = metrics;
        this.maxEntries = config.batchRegisterMax();
        this.budget = config.batchRegisterBudget();
    }

    /**
     * What one entry comes to before the transaction: a result already decided (a stored user, a repeated or taken
     * name), or the hash to insert it with.
     */
    private record Planned(String username, BatchResult decided, String hash) {}

    public List<BatchResult> register(String appId, List<BatchEntry> entries) {
        if (entries.size() > maxEntries) {
            throw ApiException.badParameter("list", "at most " + maxEntries + " entries");
        }
        long deadline = System.nanoTime() + budget.toNanos();
        List<String> keys = entries.stream().map(e -> key(e.username())).toList();
        Map<String, StoredLogin> stored = users.byUsernames(appId, new HashSet<>(keys));
        Set<String> seen = new HashSet<>();
        // a name repeated in the list: its first entry counts, the later ones fail as taken and cost no hash
        List<Boolean> repeated = keys.stream().map(key -> !seen.add(key)).toList();
        List<Planned> plan = IntStream.range(0, entries.size()).parallel()
                .mapToObj(i -> plan(entries.get(i), repeated.get(i), stored.get(keys.get(i)), deadline)).toList();

        List<Planned> fresh = plan.stream().filter(p -> p.decided() == null).toList();
        Map<String, Long> inserted = fresh.isEmpty() ? Map.of() : insert(appId, fresh, deadline);
        List<BatchResult> results = new ArrayList<>(plan.size());
        for (Planned p : plan) {
            if (p.decided() != null) {
                results.add(p.decided());
                continue;
            }
            Long userId = inserted.get(key(p.username()));
            if (userId == null) { // registered by another call between the read above and the insert
                results.add(new BatchResult(null, p.username(), false, TAKEN));
            } else {
                metrics.userRegistered();
                results.add(new BatchResult(userId, p.username(), true, null));
            }
        }
        return results;
    }

    private Planned plan(BatchEntry entry, boolean repeated, StoredLogin stored, long deadline) {
        String username = entry.username();
        if (repeated) {
            return new Planned(username, new BatchResult(null, username, false, TAKEN), null);
        }
        checkBudget(deadline);
        if (stored == null) {
            return new Planned(username, null, hasher.hash(entry.password()));
        }
        // the same name and password as a stored user: this entry was registered by an earlier call, say a retry
        // of one whose answer was lost
        return new Planned(username, hasher.matches(entry.password(), stored.passwordHash())
                ? new BatchResult(stored.userId(), username, true, null)
                : new BatchResult(null, username, false, TAKEN), null);
    }

    /** The new users and their events in one transaction, each statement cut at the deadline. */
    private Map<String, Long> insert(String appId, List<Planned> fresh, long deadline) {
        Duration left = checkBudget(deadline);
        try {
            return QuarkusTransaction.requiringNew().call(() -> {
                Map<String, Long> inserted = users.insertNew(appId, fresh.stream().map(Planned::username).toList(),
                        fresh.stream().map(Planned::hash).toList(), left);
                // a new row's token_version (1) and disabled (false) are the table's defaults
                events.publishAll(inserted.values().stream().map(userId -> AuthEvent.user(
                        AuthEvent.USER_REGISTERED, appId, userId, 1, false)).toList());
                return inserted;
            });
        } catch (RuntimeException e) {
            SQLException cause = DatabaseException.unavailableCause(e);
            if (cause != null && "57014".equals(cause.getSQLState()) && System.nanoTime() - deadline >= 0) {
                throw pastBudget(); // cancelled by the deadline before the commit: rolled back
            }
            throw e;
        }
    }

    /** What is left of the budget; none left: 50003, before anything was written. */
    private Duration checkBudget(long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw pastBudget();
        }
        return Duration.ofNanos(left);
    }

    private ApiException pastBudget() {
        return new ApiException(ErrorCode.UNAVAILABLE, "the batch did not finish within " + budget.toMillis()
                + " ms: nothing was stored; safe to retry (with fewer entries if it happens again)");
    }

    /** User names are unique without regard to case; they are ASCII ({@link UserFieldRules#USERNAME}). */
    private static String key(String username) {
        return username.toLowerCase(Locale.ROOT);
    }
}

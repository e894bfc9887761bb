package io.imcore.auth.event;

import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.Outbox;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * Appends auth events to the outbox inside the caller's JTA transaction, on the connection enlisted in it (the one
 * the Hibernate session writes the entity change on): an event commits with the entity change it announces, or
 * neither does (OutboxTransactionTest). Apps and users publish here; the other services read the topic.
 */
@ApplicationScoped
public class AuthEvents {

    private final Database database;
    private final Outbox outbox;

    public AuthEvents(Database database, Outbox outbox) {
        this.database = database;
        this.outbox = outbox;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(AuthEvent event) {
        publishAll(List.of(event));
    }

    /** Several events in order, in one round trip (a batch registration's users). */
    @Transactional(Transactional.TxType.MANDATORY)
    public void publishAll(List<AuthEvent> events) {
        database.inTransaction(connection -> {
            outbox.appendAll(connection, AuthEvent.TOPIC, events.stream().map(AuthEvent::key).toList(), events);
            return null;
        });
    }
}

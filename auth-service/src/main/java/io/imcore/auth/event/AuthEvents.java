package io.imcore.auth.event;

import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.Outbox;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

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
        database.inTransaction(connection -> {
            outbox.append(connection, AuthEvent.TOPIC, event.key(), event);
            return null;
        });
    }
}

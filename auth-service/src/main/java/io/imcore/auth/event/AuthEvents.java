package io.imcore.auth.service;

import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import org.hibernate.Session;

/**
 * Appends auth events to the outbox on the connection of the current Hibernate session, inside the caller's JTA
 * transaction: an event commits with the entity change it announces, or neither does (OutboxTransactionTest).
 */
@ApplicationScoped
public class AuthEvents {

    private final Session session;
    private final Outbox outbox;

    public AuthEvents(Session session, Outbox outbox) {
        this.session = session;
        this.outbox = outbox;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(AuthEvent event) {
        session.doWork(connection -> outbox.append(connection, AuthEvent.TOPIC, event.key(), event));
    }
}

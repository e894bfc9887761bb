package io.imcore.common.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Appends an event to the outbox inside the caller's transaction; the relay publishes it after commit. */
@ApplicationScoped
public class Outbox {

    private final ObjectMapper mapper;

    public Outbox(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public void append(Connection connection, String topic, String key, Object event) throws SQLException {
        String payload;
        try {
            payload = mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("event cannot be serialised", e);
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "insert into outbox (topic, record_key, payload) values (?, ?, ?)")) {
            insert.setString(1, topic);
            insert.setString(2, key);
            insert.setString(3, payload);
            insert.executeUpdate();
        }
    }
}

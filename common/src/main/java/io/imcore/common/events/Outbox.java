package io.imcore.common.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** Appends an event to the outbox inside the caller's transaction; the relay publishes it after commit. */
@ApplicationScoped
public class Outbox {

    private final ObjectMapper mapper;

    public Outbox(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public void append(Connection connection, String topic, String key, Object event) throws SQLException {
        appendAll(connection, topic, List.of(key), List.of(event));
    }

    /** Appends events in order ({@code keys[i]} is the key of {@code events[i]}), in one round trip. */
    public void appendAll(Connection connection, String topic, List<String> keys, List<?> events) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "insert into outbox (topic, record_key, payload) values (?, ?, ?)")) {
            for (int i = 0; i < events.size(); i++) {
                insert.setString(1, topic);
                insert.setString(2, keys.get(i));
                insert.setString(3, json(events.get(i)));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private String json(Object event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("event cannot be serialised", e);
        }
    }
}

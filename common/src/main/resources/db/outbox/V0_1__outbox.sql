-- Transactional outbox: events are written in the same transaction as the change they describe and
-- published to Kafka by the OutboxRelay, so a crash between the two loses nothing.
create table outbox (
    id          bigserial primary key,
    topic       text        not null,
    record_key  text,
    payload     text        not null,
    created_at  timestamptz not null default now()
);

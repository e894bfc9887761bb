-- Webhooks per app (docs/webhooks.md): the endpoint and its hook settings, the word filter, and the deliveries of
-- events out, which are both the dispatcher's queue and the app's delivery log (kept im.webhooks.delivery.retention).

create table webhook_endpoints (
    app_id           text        primary key,
    url              text        not null,
    events           text[]      not null,  -- event type names, or '*'
    before_send      boolean     not null,
    hook_timeout_ms  int         not null,
    hook_fail_open   boolean     not null,
    batch_size       int         not null,  -- events per request at most (1: one event, the plain body)
    secret           text        not null,  -- whsec_<base64>: the signer must read it
    disabled_at      timestamptz,           -- set when a delivery kept failing for im.webhooks.delivery.give-up-after
    disabled_reason  text,
    updated_at       timestamptz not null
);

create table webhook_word_filters (
    app_id      text        primary key,
    action      text        not null check (action in ('refuse', 'mask')),
    words       text[]      not null,
    updated_at  timestamptz not null
);

create table webhook_deliveries (
    id               bigserial   primary key,
    app_id           text        not null,
    event_id         text        not null,   -- webhook-id: the same on every attempt, for the receiver's de-duplication
    event_type       text        not null,
    ordering_key     text        not null,   -- one conversation: delivered one after the other, in id order
    body             text        not null,   -- the event as sent: {"type","timestamp","data"}
    created_at       timestamptz not null default now(),
    state            text        not null default 'pending' check (state in ('pending', 'delivered')),
    attempts         int         not null default 0,
    next_attempt_at  timestamptz not null default now(),
    lease_until      timestamptz,            -- a dispatcher is sending it until then
    last_status      int,                    -- HTTP status of the last attempt; null: no answer (timeout, refused)
    last_latency_ms  int,
    last_answer      text,                   -- the first characters of the last answer, or the failure
    delivered_at     timestamptz,
    unique (app_id, event_id)
);
-- the dispatcher's claim: due pending rows, oldest first
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, id) where state = 'pending';
-- the order check: an earlier pending row of the same conversation holds the later ones back
create index webhook_deliveries_pending_key on webhook_deliveries (app_id, ordering_key, id) where state = 'pending';
-- the delivery log, newest first, and the purge
create index webhook_deliveries_log on webhook_deliveries (app_id, id desc);
create index webhook_deliveries_created on webhook_deliveries (created_at);

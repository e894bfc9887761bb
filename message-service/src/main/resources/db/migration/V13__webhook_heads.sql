-- The head of each conversation's undelivered webhook events (docs/webhooks.md "Order and retries"): the dispatcher
-- claims heads, one row per conversation with anything pending, instead of reading the pending deliveries and
-- skipping those behind an earlier one of their conversation (which read the whole backlog while many
-- conversations had a delivery in flight).
create table webhook_heads (
    app_id           text        not null,
    ordering_key     text        not null,
    head_id          bigint      not null,  -- the conversation's oldest pending delivery
    next_attempt_at  timestamptz not null,  -- when it is due: its retry, the end of a claim's lease, or 'infinity'
                                            -- while the app's endpoint is disabled
    primary key (app_id, ordering_key)
);
create index webhook_heads_due on webhook_heads (next_attempt_at);

insert into webhook_heads (app_id, ordering_key, head_id, next_attempt_at)
select distinct on (d.app_id, d.ordering_key) d.app_id, d.ordering_key, d.id,
       case when e.disabled_at is null then d.next_attempt_at else 'infinity' end
from webhook_deliveries d left join webhook_endpoints e on e.app_id = d.app_id
where d.state = 'pending'
order by d.app_id, d.ordering_key, d.id;

-- a claim's lease is the head's next_attempt_at now
drop index webhook_deliveries_due;
alter table webhook_deliveries drop column lease_until;

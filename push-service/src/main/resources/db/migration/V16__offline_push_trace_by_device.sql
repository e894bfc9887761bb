-- push-worker claims and finishes a record's devices by (app, message, device); the primary key (app, message, user,
-- device number) reaches only the message's rows by that, and a claim of a group message's 490 devices then read the
-- message's rows once per device under the generic plan: 490 x 490 rows (issue 48, "cost that does not grow").
create index offline_push_trace_message_device on offline_push_trace (app_id, msg_id, device_id);

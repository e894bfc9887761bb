package io.imcore.console.push;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The texts of the composer, the task list, Scheduled and the task report, in English; the Simplified Chinese ones
 * are in {@code messages/push_zh-CN.properties}. Used as {@code {push:key}} in templates and through
 * {@code Language.messages(PushMessages.class)}; see {@link io.imcore.console.page.ConsoleMessages}.
 */
@MessageBundle(value = "push", locale = "en")
public interface PushMessages {

    @Message("Task {taskId}")
    String report_title(Object taskId);

    @Message("State")
    String report_state();

    @Message("accepted {time}")
    String report_accepted(Object time);

    @Message("finished {time}")
    String report_finished(Object time);

    @Message("batches {done} of {total}")
    String report_batches(Object done, Object total);

    @Message("refreshing every 2 s")
    String report_refreshing();

    @Message("What was sent")
    String report_what_sent();

    @Message("title")
    String report_dt_title();

    @Message("body")
    String report_dt_body();

    @Message("type")
    String report_dt_type();

    @Message("audience")
    String report_dt_audience();

    @Message("strategy")
    String report_dt_strategy();

    @Message("OS channels: {sequence}")
    String report_os_channels(Object sequence);

    @Message("request id")
    String report_dt_request_id();

    @Message("show from / until")
    String report_dt_show();

    @Message("sent by")
    String report_dt_sent_by();

    @Message("accepted")
    String report_dt_accepted();

    @Message("What was sent is not available: {error}")
    String report_history_error(Object error);

    @Message("Funnel per channel")
    String report_funnel();

    @Message("Deliveries over time")
    String report_deliveries();

    @Message("deliveries per bucket")
    String report_chart_unit();

    @Message("Sent per channel when push-worker counted each batch, received when each receipt arrived, "
            + "failed (failed and rejected) when counted; UTC. ios and cloud have no received line: they send "
            + "no receipts.")
    String report_chart_caption();

    @Message("Nothing delivered yet.")
    String report_no_deliveries();

    @Message("Failures and rejections by reason")
    String report_failures();

    @Message("None.")
    String report_no_failures();

    @Message("push-service does not report failures by reason yet.")
    String report_failures_unknown();

    @Message("Task list not available: {error}")
    String tasks_error(Object error);

    @Message("No tasks.")
    String tasks_none();

    @Message("received counts only the channels with delivery receipts: ios and cloud send none, so they are "
            + "left out, and a task sent only on them shows \"not measured\".")
    String tasks_received_note();

    @Message("No task {taskId} in this app.")
    String report_no_task(Object taskId);

    @Message("Scheduled for {time}.")
    String report_scheduled_for(Object time);

    @Message("Scheduled.")
    String report_scheduled();

    @Message("Accepted: the audience is expanded next.")
    String report_accepted_state();

    @Message("Expanding the audience…")
    String report_expanding();

    @Message("Dispatching…")
    String report_dispatching();

    @Message("No device targeted on any channel.")
    String report_no_target();

    @Message("all devices")
    String report_all_devices();

    @Message(" and {count} more")
    String report_more(Object count);

    @Message(" (admin token version {version})")
    String report_token_version(Object version);

    @Message("the app admin, in this console")
    String report_via_console();

    @Message("the app admin token, through the API")
    String report_via_api();

    @Message("not recorded (sent before push-service kept it)")
    String report_sender_unknown();

    @Message("Compose a push")
    String compose_title();

    @Message("This push goes to all devices of the app: it will reach")
    String compose_confirm_all_before();

    @Message("of")
    String compose_of();

    @Message("devices now. Send it, or change the form below.")
    String compose_confirm_all_after();

    @Message("Confirm: send to {targets} devices")
    String compose_confirm_send(Object targets);

    @Message("Audience")
    String compose_audience();

    @Message("Kind")
    String compose_kind();

    @Message("Values (comma or line separated; not for all)")
    String compose_values();

    @Message("Count audience")
    String compose_count();

    @Message("Reached now with this strategy and sequence:")
    String compose_count_before();

    @Message("devices ({unreachable} unreachable)")
    String compose_count_after(Object unreachable);

    @Message("Message")
    String compose_message();

    @Message("Type")
    String compose_type();

    @Message("Per-channel extras (JSON object: ios, android, vendor_a.. cloud; optional)")
    String compose_extras();

    @Message("Delivery")
    String compose_delivery();

    @Message("Strategy")
    String compose_strategy();

    @Message("OS channel sequence (comma separated, empty = ups, cloud)")
    String compose_sequence();

    @Message("Show from (UTC, empty = now)")
    String compose_show_from();

    @Message("Request id (de-duplication, optional)")
    String compose_request_id();

    @Message("Send push")
    String compose_send();

    @Message("How a phone shows the notification")
    String preview_label();

    @Message("Pass-through (cmd): delivered to the app, not shown in the notification bar.")
    String preview_silent();

    @Message("now")
    String preview_now();

    @Message("Scheduled pushes")
    String scheduled_title();

    @Message("Pushes with a \"show from\" time still to come. A push can be cancelled until its time comes "
            + "and it starts going out; a cancelled push is never sent.")
    String scheduled_intro();

    @Message("sends at")
    String scheduled_sends_at();

    @Message("Cancel")
    String scheduled_cancel();

    @Message("No scheduled push.")
    String scheduled_none();

    @Message("{shown} of {total} shown, the soonest first.")
    String scheduled_shown(Object shown, Object total);

    @Message("Push tasks")
    String tasks_title();

    @Message("From")
    String tasks_from();

    @Message("To")
    String tasks_to();

    @Message("State")
    String tasks_state();

    @Message("any")
    String tasks_any();

    @Message("Text")
    String tasks_text();

    @Message("Filter")
    String tasks_filter();

    @Message("Open task id")
    String tasks_open_id();

    @Message("Open")
    String tasks_open();

    @Message("(these filters, all pages, at most 10,000 tasks)")
    String tasks_csv_note();

    @Message("newer")
    String tasks_newer();

    @Message("older")
    String tasks_older();

    @Message("{total} tasks")
    String tasks_total(Object total);

    @Message("Push accepted as task {taskId}.")
    String compose_accepted(Object taskId);

    @Message("Not counted: {error}")
    String compose_not_counted(Object error);

    @Message("audience: user ids are numbers, not \"{value}\"")
    String compose_user_id_not_number(Object value);

    @Message("audience: choose one of {kinds}")
    String compose_choose_kind(Object kinds);

    @Message("extras: a JSON object is needed")
    String compose_extras_not_object();

    @Message("extras: not JSON ({error})")
    String compose_extras_not_json(Object error);

    @Message("show from: not a date and time")
    String compose_show_from_invalid();

    @Message("task id must be a number, not \"{id}\".")
    String tasks_id_not_number(Object id);

    @Message("Task {taskId} cancelled: it will not be sent.")
    String scheduled_cancelled(Object taskId);

    @Message("Task {taskId} not cancelled: {error}")
    String scheduled_not_cancelled(Object taskId, Object error);
}

package io.imcore.console.page;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * Every text the console writes, in English (the default); the Simplified Chinese ones are in
 * {@code messages/msg_zh-CN.properties}, one line per method (docs/console.md "Languages"). Templates use them as
 * {@code {msg:key}}, page classes through {@link Language#msg()}. A message is a Qute template: {@code {name}} is a
 * parameter, and the output is escaped like any other expression. The push pages' texts are in
 * {@code io.imcore.console.push.PushMessages} ({@code {push:key}}): with Quarkus 3.37.1 one bundle of 317 methods
 * failed verification at start-up (a VerifyError in its generated resolver); 265 did not.
 */
@MessageBundle(value = "msg", locale = "en")
public interface ConsoleMessages {

    @Message("imcore console")
    String brand();

    @Message("Overview")
    String nav_overview();

    @Message("Certificates")
    String nav_certificates();

    @Message("Compose push")
    String nav_compose();

    @Message("Tasks")
    String nav_tasks();

    @Message("Trends")
    String nav_trends();

    @Message("Message trace")
    String nav_messages();

    @Message("Users and groups")
    String nav_users();

    @Message("Apps")
    String nav_apps();

    @Message("System")
    String nav_system();

    @Message("app {appId}")
    String who_app(Object appId);

    @Message("operator")
    String who_operator();

    @Message("Sign out")
    String sign_out();

    @Message("Sign in")
    String signin_title();

    @Message("App admin")
    String signin_admin();

    @Message("App id")
    String signin_app_id();

    @Message("Admin token")
    String signin_admin_token();

    @Message("Sign in as app admin")
    String signin_as_admin();

    @Message("Operator")
    String signin_operator();

    @Message("Platform key")
    String signin_platform_key();

    @Message("Sign in as operator")
    String signin_as_operator();

    @Message("App {appId}")
    String overview_title(Object appId);

    @Message("Push")
    String overview_push();

    @Message("Push sending is")
    String overview_push_is();

    @Message("on")
    String overview_on();

    @Message("off")
    String overview_off();

    @Message("Switch push on")
    String overview_switch_on();

    @Message("Switch push off")
    String overview_switch_off();

    @Message("Last pushes")
    String overview_last_pushes();

    @Message("Files")
    String overview_files();

    @Message("Storage used")
    String overview_storage_is();

    @Message("{files} files, {size}")
    String overview_storage(long files, String size);

    @Message("Refused")
    String refused_title();

    @Message("Back to the console")
    String refused_back();

    @Message("Confirm")
    String confirm();

    @Message("Cancel")
    String cancel();

    @Message("Rotate the admin token of app {appId}? The old one stops working.")
    String apps_rotate_confirm(Object appId);

    @Message("App")
    String apps_app();

    @Message("created.")
    String apps_created();

    @Message("given a new admin token (the previous one no longer works).")
    String apps_rotated();

    @Message("Its admin token, shown this once:")
    String apps_shown_once();

    @Message("Copy")
    String apps_copy();

    @Message("App list not available: {error}")
    String apps_list_error(Object error);

    @Message("created")
    String col_created();

    @Message("name")
    String col_name();

    @Message("Rotate admin token")
    String apps_rotate();

    @Message("No apps listed.")
    String apps_none();

    @Message("Create an app")
    String apps_create_title();

    @Message("Create")
    String apps_create();

    @Message("Push certificates")
    String cert_title();

    @Message("Certificate")
    String cert_certificate();

    @Message("upload a renewed one.")
    String cert_upload_renewed();

    @Message("provider")
    String col_provider();

    @Message("environment")
    String col_environment();

    @Message("certificate")
    String col_certificate();

    @Message("expires")
    String col_expires();

    @Message("No certificates yet.")
    String cert_none();

    @Message("Upload or replace")
    String cert_upload_title();

    @Message("Provider")
    String cert_provider();

    @Message("Environment")
    String cert_environment();

    @Message("1 production")
    String env_production();

    @Message("0 development")
    String env_development();

    @Message("Name")
    String cert_name();

    @Message("certificate (PEM, base64 .p12 or service-account JSON)")
    String cert_certificate_field();

    @Message("message_defaults (JSON object, optional)")
    String cert_message_defaults();

    @Message("Save certificate")
    String cert_save();

    @Message("Test send")
    String cert_test_title();

    @Message("One notification to a device token with the certificate of that provider and environment; the "
            + "provider's answer is shown as it came.")
    String cert_test_intro();

    @Message("Device token")
    String cert_device_token();

    @Message("Title")
    String field_title();

    @Message("Body")
    String field_body();

    @Message("Test")
    String cert_test_default_title();

    @Message("Test from the imcore console")
    String cert_test_default_body();

    @Message("Send one notification")
    String cert_test_send();

    @Message("outcome")
    String cert_outcome();

    @Message("reason")
    String col_reason();

    @Message("provider HTTP status")
    String cert_http_status();

    @Message("provider code")
    String cert_provider_code();

    @Message("provider answer")
    String cert_provider_answer();

    @Message("time")
    String cert_time();

    @Message("What offline push did with a chat message, per recipient device (kept 7 days; docs/offline-push.md).")
    String trace_intro();

    @Message("Message id")
    String trace_msg_id();

    @Message("Trace")
    String trace_submit();

    @Message("Message {id}")
    String trace_message(Object id);

    @Message("{devices} recipient devices, {notified} notified through a provider.")
    String trace_summary(Object devices, Object notified);

    @Message("user")
    String col_user();

    @Message("device")
    String col_device();

    @Message("conversation")
    String col_conversation();

    @Message("decision")
    String col_decision();

    @Message("channel")
    String col_channel();

    @Message("state")
    String col_state();

    @Message("provider answer / reason")
    String col_answer_reason();

    @Message("decided")
    String col_decided();

    @Message("sent")
    String col_sent();

    @Message("received")
    String col_received();

    @Message("none")
    String trace_no_device();

    @Message("No offline push recorded for message {id}: it is older than 7 days, its app has offline push "
            + "off, or the id is wrong.")
    String trace_empty(Object id);

    @Message("sent")
    String col_sent_at();

    @Message("received")
    String col_received_at();

    @Message("Download CSV")
    String download_csv();

    @Message("target")
    String col_target();

    @Message("failed")
    String col_failed();

    @Message("rejected")
    String col_rejected();

    @Message("this provider sends no delivery receipts")
    String no_receipts();

    @Message("not measured")
    String not_measured();

    @Message("count")
    String col_count();

    @Message("Health")
    String system_health();

    @Message("service")
    String col_service();

    @Message("ready")
    String col_ready();

    @Message("The last hour per channel (Prometheus)")
    String system_last_hour();

    @Message("Not shown: {reason}. The tables below are the numbers of this view.")
    String system_history_unavailable(Object reason);

    @Message("{unit}, per channel, one point a minute")
    String system_chart_caption(Object unit);

    @Message("Consumer lag per channel (push-worker)")
    String system_lag();

    @Message("Lag not available: {error}")
    String system_lag_error(Object error);

    @Message("topic")
    String col_topic();

    @Message("consumer group")
    String col_consumer_group();

    @Message("partitions")
    String col_partitions();

    @Message("lag (records)")
    String col_lag();

    @Message("Push targets by channel and outcome (push-worker)")
    String system_targets();

    @Message("total")
    String col_total();

    @Message("rate since the previous view")
    String col_rate();

    @Message("push-worker's metrics are not reachable, or it has sent nothing yet.")
    String system_no_targets();

    @Message("task")
    String col_task();

    @Message("Trends: the last {days} days (UTC)")
    String trends_title(Object days);

    @Message("Days")
    String trends_days();

    @Message("Show")
    String trends_show();

    @Message("Daily statistics not available: {error}")
    String trends_error(Object error);

    @Message("(these days: the table below and the offline push table)")
    String trends_csv_note();

    @Message("Sent and failed per channel and day; the same numbers are in the table below.")
    String trends_chart_caption();

    @Message("Daily counts per channel (GET /push/stats/daily)")
    String trends_table_caption();

    @Message("date")
    String col_date();

    @Message("No pushes in these days.")
    String trends_none();

    @Message("Offline push of messages")
    String trends_offline();

    @Message("Notifications of chat messages to offline devices, per day (UTC) and channel; they are not push "
            + "tasks, so they are not in the figures above. \"received\" stays 0 until provider receipts are "
            + "counted for them. Per message:")
    String trends_offline_intro();

    @Message("Offline push statistics not available: {error}")
    String trends_offline_error(Object error);

    @Message("Offline pushes per day and channel (GET /push/offline/stats)")
    String trends_offline_caption();

    @Message("No offline pushes in these days.")
    String trends_offline_none();

    @Message("User id, user name or alias")
    String users_q();

    @Message("Look up by")
    String users_by();

    @Message("id or user name")
    String users_by_user();

    @Message("alias")
    String users_by_alias();

    @Message("Find")
    String users_find();

    @Message("Digits are a user id, anything else a user name (user names are never all digits); \"alias\" "
            + "finds the users whose devices carry that push alias.")
    String users_hint();

    @Message("Users with alias {alias}")
    String users_alias_title(Object alias);

    @Message("No device of this app carries this alias.")
    String users_alias_none();

    @Message("The first 100 users; more have this alias.")
    String users_alias_more();

    @Message("User {id}: {name}")
    String users_user_title(Object id, Object name);

    @Message("state")
    String users_state();

    @Message("disabled")
    String users_disabled();

    @Message("enabled")
    String users_enabled();

    @Message("mobile")
    String users_mobile();

    @Message("email")
    String users_email();

    @Message("Disable user {name} ({id})? Their tokens stop working.")
    String users_disable_confirm(Object name, Object id);

    @Message("Enable")
    String users_enable();

    @Message("Disable")
    String users_disable();

    @Message("Devices (auth-service)")
    String users_devices();

    @Message("last seen")
    String col_last_seen();

    @Message("No devices.")
    String users_no_devices();

    @Message("Provider tokens (push-service, masked)")
    String users_tokens();

    @Message("token")
    String col_token();

    @Message("bound")
    String col_bound();

    @Message("No provider tokens.")
    String users_no_tokens();

    @Message("Files (message-service, newest first)")
    String users_files();

    @Message("No files.")
    String users_no_files();

    @Message("Older files are not shown.")
    String users_files_more();

    @Message("thumbnail")
    String col_thumbnail();

    @Message("type")
    String col_type();

    @Message("size")
    String col_size();

    @Message("message")
    String col_message();

    @Message("uploading")
    String users_file_uploading();

    @Message("completed")
    String users_file_completed();
    @Message("Recent events (the user's change log, newest first)")
    String users_events();

    @Message("No events kept for this user.")
    String users_no_events();

    @Message("event")
    String col_event();

    @Message("time")
    String col_time();

    @Message("what changed")
    String col_summary();

    @Message("Group")
    String users_group();

    @Message("Look up group")
    String users_group_submit();

    @Message("Group {id}")
    String users_group_title(Object id);

    @Message("role")
    String col_role();

    @Message("joined")
    String col_joined();

    @Message("No members.")
    String users_no_members();

    @Message("This page is for the operator (platform key) only.")
    String refused_operator_only();

    @Message("This page is about one app: sign in as its admin.")
    String refused_admin_only();

    @Message("This form was refused: its CSRF token is missing or is not the one of your session. Reload the "
            + "page and send the form again.")
    String refused_csrf();

    @Message("This sign-in form was refused: its CSRF token is missing, is not the one this browser was given with "
            + "the form, or has expired. Reload the sign-in page and sign in again.")
    String refused_sign_in_form();

    @Message("unknown ({error})")
    String overview_unknown(Object error);

    @Message("Push switched on.")
    String overview_switched_on();

    @Message("Push switched off.")
    String overview_switched_off();

    @Message("Push not switched: {error}")
    String overview_not_switched(Object error);

    @Message("10015 too many failed sign-ins from your address: try again in {seconds} s.")
    String signin_throttled(Object seconds);

    @Message("Enter the app id and its admin token.")
    String signin_enter_admin();

    @Message("Enter the platform key.")
    String signin_enter_key();

    @Message("Not signed in: {error}")
    String signin_refused(Object error);

    @Message("message_defaults: not JSON")
    String cert_not_json();

    @Message("Certificate {name} saved.")
    String cert_saved(Object name);

    @Message("Not sent: {error}")
    String not_sent(Object error);

    @Message("Certificates not read: {error}")
    String cert_not_read(Object error);

    @Message("does not expire")
    String cert_no_expiry();

    @Message("expired")
    String cert_expired();

    @Message("expires today")
    String cert_expires_today();

    @Message("expires in 1 day")
    String cert_expires_in_one_day();

    @Message("expires in {days} days")
    String cert_expires_in(Object days);

    @Message("({length} characters)")
    String cert_masked_length(Object length);

    @Message("Delivery receipts")
    String cert_receipts_title();

    @Message("Enter each channel's callback URL in that provider's console: the providers send their delivery "
            + "receipts there, and the receipt key in the URL proves they come for this app.")
    String cert_receipts_intro();

    @Message("Receipt key")
    String cert_receipt_key();

    @Message("callback URL")
    String col_callback_url();

    @Message("Rotate receipt key")
    String cert_receipt_rotate();

    @Message("Rotate the receipt key? The old one is refused at once: enter the new callback URLs in the providers' "
            + "consoles.")
    String cert_receipt_rotate_confirm();

    @Message("Receipt key rotated: enter the new callback URLs in the providers' consoles.")
    String cert_receipt_rotated();

    @Message("Receipt key not rotated: {error}")
    String cert_receipt_not_rotated(Object error);

    @Message("Receipt key not read: {error}")
    String cert_receipt_not_read(Object error);

    @Message("sent per second")
    String system_unit_sent();

    @Message("failed or rejected per second")
    String system_unit_failed();

    @Message("records behind (lag)")
    String system_unit_lag();

    @Message("no Prometheus is configured (im.console.prometheus-url)")
    String system_no_prometheus();

    @Message("Prometheus at {url} does not answer")
    String system_prometheus_silent(Object url);

    @Message("DOWN or unreachable")
    String system_down();

    @Message("unknown")
    String system_unknown();

    @Message("{rate}/s over {seconds} s")
    String system_rate(Object rate, Object seconds);

    @Message("live (socket)")
    String decision_live();

    @Message("live, not acknowledged: offline push")
    String decision_live_unacknowledged();

    @Message("offline push")
    String decision_offline_push();

    @Message("muted")
    String decision_muted();

    @Message("do not disturb")
    String decision_do_not_disturb();

    @Message("no provider token")
    String decision_no_token();

    @Message("no device")
    String decision_no_device();

    @Message("user opted out of push")
    String decision_user_opted_out();

    @Message("sender turned offline push off")
    String decision_sender_opted_out();

    @Message("msg_id must be a number, not \"{id}\".")
    String trace_not_number(Object id);

    @Message("Trace not available: {error}")
    String trace_error(Object error);

    @Message("direct, with user {user}")
    String conversation_direct(Object user);

    @Message("group {group}")
    String conversation_group(Object group);

    @Message("system notification")
    String conversation_system();

    @Message("days must be 1 to {max}, not \"{days}\".")
    String trends_days_error(Object max, Object days);

    @Message("user_id must be a number.")
    String users_id_not_number();

    @Message("group_id must be a number")
    String users_group_not_number();

    @Message("No user with id {id} in this app.")
    String users_no_user_id(Object id);

    @Message("No user named {name} in this app.")
    String users_no_user_named(Object name);

    @Message("User not looked up: {error}")
    String users_not_looked_up(Object error);

    @Message("Alias not looked up: {error}")
    String users_alias_not_looked_up(Object error);

    @Message("Nothing changed: a numeric user_id and disable or enable are needed.")
    String users_nothing_changed();

    @Message("User {user} disabled.")
    String users_disabled_notice(Object user);

    @Message("User {user} enabled.")
    String users_enabled_notice(Object user);

    @Message("User {user} not disabled: {error}")
    String users_not_disabled(Object user, Object error);

    @Message("User {user} not enabled: {error}")
    String users_not_enabled(Object user, Object error);

    @Message("name: required, the name this list shows for the app")
    String apps_name_required();

    @Message("notifications")
    String chart_axis();

    @Message("Scheduled")
    String nav_scheduled();

    @Message("Time")
    String chart_time();

    @Message("Attachment")
    String attachment_title();

    @Message("Attachment not read: {error}")
    String attachment_not_read(Object error);

    @Message("the message's attachment, as stored (it names no file)")
    String attachment_text();

    @Message("Name")
    String attachment_name();

    @Message("Type")
    String attachment_type();

    @Message("Size")
    String attachment_size();

    @Message("Dimensions")
    String attachment_dimensions();

    @Message("Thumbnail of {name}")
    String attachment_thumbnail(Object name);
}

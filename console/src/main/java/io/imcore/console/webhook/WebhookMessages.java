package io.imcore.console.webhook;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The texts of the Webhooks page (settings, delivery log, word filter) and of the overview's disabled-endpoint banner,
 * in English; the Simplified Chinese ones are in {@code messages/hook_zh-CN.properties}. Used as {@code {hook:key}}
 * in templates and through {@code Language.messages(WebhookMessages.class)}; a bundle of its own for the reason
 * {@link io.imcore.console.page.ConsoleMessages} gives.
 */
@MessageBundle(value = "hook", locale = "en")
public interface WebhookMessages {

    @Message("Webhooks")
    String nav_webhooks();

    @Message("Endpoint")
    String settings_title();

    @Message("No webhook is set for this app: save one below.")
    String settings_none();

    @Message("Webhook settings not read: {error}")
    String settings_not_read(Object error);

    @Message("URL")
    String url();

    @Message("Events")
    String events();

    @Message("event names separated by commas, or * for all (docs/webhooks.md \"Events\")")
    String events_hint();

    @Message("Call the endpoint before each send (before-send hook)")
    String before_send();

    @Message("Hook timeout (ms, 1 to 2,000)")
    String hook_timeout();

    @Message("When the hook fails or times out, send the message anyway (fail open)")
    String hook_fail_open();

    @Message("Events per request (1 to 100)")
    String batch_size();

    @Message("Secret")
    String secret();

    @Message("Save (issues a new secret)")
    String save();

    @Message("Not saved: {error}")
    String not_saved(Object error);

    @Message("Saved. The new signing secret is shown this once and kept nowhere in the console: copy it now.")
    String saved_secret();

    @Message("Copy")
    String copy();

    @Message("Deliveries to this endpoint stopped at {time}: {reason}")
    String disabled(Object time, Object reason);

    @Message("Its events wait. Saving the settings again (below) enables it and sends the waiting events at once; it also issues a new secret.")
    String disabled_how();

    @Message("The webhook endpoint of this app is disabled since {time}: its events wait.")
    String overview_disabled(Object time);

    @Message("Open Webhooks")
    String overview_open();

    @Message("Delivery log (last 7 days)")
    String log_title();

    @Message("Delivery log not read: {error}")
    String log_not_read(Object error);

    @Message("No delivery in the last 7 days.")
    String log_none();

    @Message("Time")
    String col_time();

    @Message("Event")
    String col_event();

    @Message("State")
    String col_state();

    @Message("HTTP status")
    String col_status();

    @Message("Latency")
    String col_latency();

    @Message("Attempts")
    String col_attempts();

    @Message("Answer (excerpt)")
    String col_answer();

    @Message("delivered")
    String state_delivered();

    @Message("pending")
    String state_pending();

    @Message("Send again")
    String send_again();

    @Message("Older deliveries")
    String log_older();

    @Message("Newest deliveries")
    String log_newest();

    @Message("Delivery {id} queued again: it is sent now, with the same event id.")
    String resent(Object id);

    @Message("Delivery {id} not queued again: {error}")
    String not_resent(Object id, Object error);

    @Message("Word filter")
    String words_title();

    @Message("No word list: this app's messages are not filtered.")
    String words_none();

    @Message("Word list not read: {error}")
    String words_not_read(Object error);

    @Message("Words, one per line (up to 20,000, each up to 50 characters, any script; case is ignored)")
    String words();

    @Message("When a text message contains one")
    String words_action();

    @Message("refuse the message (21001)")
    String words_refuse();

    @Message("mask the word with *")
    String words_mask();

    @Message("Save the word list")
    String words_save();

    @Message("Word list saved: {count} words.")
    String words_saved(Object count);

    @Message("The word list holds {count} words.")
    String words_count(Object count);
}

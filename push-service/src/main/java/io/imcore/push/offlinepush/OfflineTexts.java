package io.imcore.push.offlinepush;

import io.imcore.common.events.MessageEvent;
import java.util.Map;

/**
 * The generated texts of an offline notification in the app's language (docs/offline-push.md "What it says"):
 * {@code en} and {@code zh-CN}; another language falls back to English.
 */
final class OfflineTexts {

    static final String ENGLISH = "en";
    static final String CHINESE = "zh-CN";

    private record Language(String newMessage, String hiddenBody, String system, String mentioned, String recalled,
            Map<Integer, String> placeholders) {}

    // content_type of api.md 4.4.4: 0 TEXT, 1 IMAGE, 2 AUDIO, 3 VIDEO, 4 FILE, 5 LOCATION, 6 COMMAND, 7 FORWARD
    private static final Language EN = new Language("New message", "You have a new message", "System notification",
            "[Mentioned you] ", "A message was recalled", Map.of(1, "[Image]", 2, "[Voice]", 3, "[Video]", 4, "[File]",
                    5, "[Location]", 6, "[Message]", 7, "[Chat history]"));
    private static final Language ZH = new Language("新消息", "你收到了一条新消息", "系统通知", "[有人@我] ",
            "消息已撤回", Map.of(1, "[图片]", 2, "[语音]", 3, "[视频]", 4, "[文件]", 5, "[位置]", 6, "[消息]", 7, "[聊天记录]"));

    private OfflineTexts() {}

    static boolean known(String language) {
        return ENGLISH.equals(language) || CHINESE.equals(language);
    }

    /** Title and body for one recipient. */
    record Texts(String title, String body) {}

    /**
     * @param senderName the sender's display name, or null when they have none
     * @param preview    false: the recipient hides previews (neither sender nor content is shown)
     */
    static Texts of(String language, MessageEvent event, String senderName, boolean preview, boolean mentioned) {
        Language l = CHINESE.equals(language) ? ZH : EN;
        if (MessageEvent.RECALLED.equals(event.type())) {
            Texts shown = of(language, event.withType(MessageEvent.CREATED, event.recipients()), senderName, preview,
                    false);
            return new Texts(shown.title(), l.recalled()); // the title of the notification it replaces
        }
        if (!preview) {
            return new Texts(l.newMessage(), l.hiddenBody());
        }
        String content = event.preview() != null ? event.preview()
                : l.placeholders().getOrDefault(event.contentType(), l.placeholders().get(6));
        String sender = senderName != null ? senderName : l.newMessage();
        String title;
        String body;
        if (MessageEvent.SYSTEM.equals(event.kind())) {
            title = l.system();
            body = content;
        } else if (MessageEvent.GROUP.equals(event.kind())) {
            String group = event.groupName() == null || event.groupName().isEmpty() ? l.newMessage() : event.groupName();
            title = group;
            body = (senderName != null ? senderName + ": " : "") + content;
        } else {
            title = sender;
            body = content;
        }
        if (event.push() != null) {
            title = event.push().title() != null ? event.push().title() : title;
            body = event.push().body() != null ? event.push().body() : body;
        }
        return new Texts(title, (mentioned ? l.mentioned() : "") + body);
    }
}

package io.imcore.push.offlinepush;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.events.MessageEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The previews of file messages (docs/files.md): the message's content type in the app's language, never its file;
 * and the replacement of a recalled message's notification (docs/offline-push.md "Recall").
 */
class OfflineTextsTest {

    @Test
    void fileMessagesPreviewTheirKindInTheAppsLanguage() {
        String[] english = {"[Image]", "[Voice]", "[Video]", "[File]"};
        String[] chinese = {"[图片]", "[语音]", "[视频]", "[文件]"};
        for (int contentType = 1; contentType <= 4; contentType++) {
            MessageEvent event = fileMessage(contentType);
            assertEquals(english[contentType - 1], OfflineTexts.of(OfflineTexts.ENGLISH, event, "Alice", true, false).body());
            assertEquals(chinese[contentType - 1], OfflineTexts.of(OfflineTexts.CHINESE, event, "Alice", true, false).body());
        }
    }

    @Test
    void aRecalledMessagesReplacementKeepsItsTitleAndSaysItWasRecalled() {
        MessageEvent recalled = new MessageEvent(MessageEvent.VERSION, MessageEvent.RECALLED, "app", 1,
                MessageEvent.GROUP, 10, null, 7L, "friends", 0, null, null, List.of(10L), false, List.of(), 0, 0, 2L);
        assertEquals(new OfflineTexts.Texts("friends", "A message was recalled"),
                OfflineTexts.of(OfflineTexts.ENGLISH, recalled, "Alice", true, true));
        assertEquals(new OfflineTexts.Texts("friends", "消息已撤回"),
                OfflineTexts.of(OfflineTexts.CHINESE, recalled, "Alice", true, true));
        assertEquals(new OfflineTexts.Texts("新消息", "消息已撤回"),
                OfflineTexts.of(OfflineTexts.CHINESE, recalled, "Alice", false, false), "previews hidden");
    }

    /** As message-service announces it: no preview text for anything but TEXT. */
    private static MessageEvent fileMessage(int contentType) {
        return new MessageEvent(MessageEvent.VERSION, MessageEvent.CREATED, "app", 1, MessageEvent.DIRECT, 10, null,
                null, null, contentType, null, null, List.of(), false, List.of(), 0, 0, null);
    }
}

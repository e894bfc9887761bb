package io.imcore.push.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.events.MessageEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The previews of file messages (docs/files.md): the message's content type in the app's language, never its file. */
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

    /** As message-service announces it: no preview text for anything but TEXT. */
    private static MessageEvent fileMessage(int contentType) {
        return new MessageEvent(MessageEvent.VERSION, MessageEvent.CREATED, "app", 1, MessageEvent.DIRECT, 10, null,
                null, null, contentType, null, null, List.of(), false, List.of(), 0, 0);
    }
}

package io.imcore.message.file;

import io.imcore.message.conversation.ContentType;
import java.util.Locale;

/** What a file is, by its first bytes; each kind is the message content_type that carries it. */
public enum FileKind {
    IMAGE(ContentType.IMAGE), AUDIO(ContentType.AUDIO), VIDEO(ContentType.VIDEO), FILE(ContentType.FILE);

    final ContentType contentType;

    FileKind(ContentType contentType) {
        this.contentType = contentType;
    }

    /** The attachment's {@code type}: image, audio, video, file. */
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static FileKind of(int code) {
        for (FileKind kind : values()) {
            if (kind.contentType.ordinal() == code) {
                return kind;
            }
        }
        throw new IllegalArgumentException("no file kind " + code);
    }
}

package io.imcore.message.file;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Answer of POST /file/complete: the file as checked; width and height for images. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CompletedFile(long fileId, String type, String name, long size, String contentType, Integer width,
        Integer height) {

    static CompletedFile of(FileStore.FileRow file) {
        return new CompletedFile(file.fileId(), file.kind().wireName(), file.name(), file.size(), file.contentType(),
                file.width(), file.height());
    }
}

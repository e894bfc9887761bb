package io.imcore.message.file;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Answer of GET /file/list (admin): a page of one user's files, newest first; {@code next_before} continues it,
 * absent on the last page.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UserFiles(List<UserFile> files, Long nextBefore) {

    /**
     * One file: {@code state} "uploading" or "completed"; {@code size} as measured, or as declared while uploading;
     * {@code type}, dimensions and {@code thumbnail} once completed; {@code msg_id} the first message carrying it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record UserFile(long fileId, String name, String contentType, String type, long size, String state,
            Integer width, Integer height, boolean thumbnail, long createdAt, Long msgId) {}
}

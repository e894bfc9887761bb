package io.imcore.message.file;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.message.conversation.ContentType;
import io.imcore.message.file.FileStore.FileRow;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The attachment of a message that carries a file (docs/api-decisions.md "File messages"): the client names the
 * file, {@code {"file_id": N}} (plus {@code duration} in seconds for voice and video, {@code width}/{@code height}
 * for a video), and the stored attachment is the file as checked, in one canonical form that starts with
 * {@code {"file_id":N,} so that the download check finds the messages carrying a file (index messages_by_file).
 * Attachments that name no file are stored as they came, without a look-up.
 */
@ApplicationScoped
public class FileAttachments {

    private static final String FILE_ID = "\"file_id\"";

    private final FileService files;
    private final ObjectMapper mapper;

    public FileAttachments(FileService files, ObjectMapper mapper) {
        this.files = files;
        this.mapper = mapper;
    }

    /**
     * The attachment to store for a message of {@code contentType} from {@code sender}: unchanged unless it is a
     * JSON object naming a file, which must be a completed file of the app uploaded by the sender.
     */
    public String resolve(String appId, long sender, int contentType, String attachment) {
        if (attachment == null || !attachment.contains(FILE_ID) || !attachment.strip().startsWith("{")) {
            return attachment;
        }
        JsonNode given;
        try {
            given = mapper.readTree(attachment);
        } catch (JsonProcessingException e) {
            throw ApiException.badParameter("attachment", "names a file_id but is not a JSON object");
        }
        JsonNode id = given.get("file_id");
        if (!given.isObject() || id == null || !id.canConvertToLong() || !id.isIntegralNumber()) {
            throw ApiException.badParameter("attachment", "file_id must be a positive integer");
        }
        FileRow file = files.find(appId, FileService.requireFileId(id.asLong()));
        if (file.ownerId() != sender) {
            throw new ApiException(ErrorCode.FILE_NO_ACCESS, "attachment: file " + file.fileId()
                    + " was uploaded by another user");
        }
        if (!file.completed()) {
            throw new ApiException(ErrorCode.FILE_NOT_COMPLETED, "attachment: file " + file.fileId()
                    + " is not completed (POST /file/complete)");
        }
        if (contentType >= ContentType.IMAGE.ordinal() && contentType <= ContentType.VIDEO.ordinal()
                && contentType != file.kind().contentType.ordinal()) {
            throw ApiException.badParameter("attachment", "file " + file.fileId() + " is a " + file.kind().wireName()
                    + " file; content_type " + ContentType.nameOf(contentType) + " carries "
                    + FileKind.of(contentType).wireName() + " files");
        }
        ObjectNode stored = mapper.createObjectNode();
        stored.put("file_id", file.fileId());
        stored.put("type", file.kind().wireName());
        stored.put("name", file.name());
        stored.put("size", file.size());
        stored.put("content_type", file.contentType());
        if (file.width() != null) {
            stored.put("width", file.width());
            stored.put("height", file.height());
        } else {
            copyPositive(given, stored, "width");
            copyPositive(given, stored, "height");
        }
        copyPositive(given, stored, "duration");
        return stored.toString();
    }

    /** A measure only the client knows (a video's size, a recording's length): a positive number when given. */
    private static void copyPositive(JsonNode given, ObjectNode stored, String field) {
        JsonNode value = given.get(field);
        if (value == null || value.isNull()) {
            return;
        }
        if (!value.isNumber() || value.asDouble() <= 0) {
            throw ApiException.badParameter("attachment", field + " must be a positive number");
        }
        stored.set(field, value);
    }
}

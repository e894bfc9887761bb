package io.imcore.message.file;

import java.util.Map;

/** Answer of POST /file/upload: PUT the bytes to {@code upload_url} with exactly {@code upload_headers}. */
public record UploadTicket(long fileId, String uploadUrl, Map<String, String> uploadHeaders, long expiresAt) {}

package io.imcore.message.file;

/** Body of POST /file/upload: what the client is about to PUT (docs/files.md). */
public record UploadRequest(String name, String contentType, Long size, String sha256) {}

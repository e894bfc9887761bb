package io.imcore.message.file;

/** Body of POST /file/complete. */
public record CompleteRequest(Long fileId) {}

package io.imcore.message.file;

/** Answer of GET /file/download: presigned GETs of the file and of its thumbnail (null without one). */
public record DownloadLink(String url, long expiresAt, String thumbnailUrl) {}

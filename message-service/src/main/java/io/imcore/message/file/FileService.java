package io.imcore.message.file;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.api.StorableText;
import io.imcore.common.store.Database;
import io.imcore.message.file.FileStore.Expired;
import io.imcore.message.file.FileStore.FileRow;
import io.imcore.message.file.FileStore.Measured;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Files of messages (docs/files.md): an upload is declared ({@link #upload}), its bytes go straight from the
 * client to the object store, {@link #complete} checks them (size, SHA-256, type by the first bytes, the app's
 * limit) and makes a thumbnail of JPEG and PNG images; the conversation's members download through short-lived
 * presigned URLs ({@link #download}). Refused bytes are deleted, uploads never completed are swept.
 */
@ApplicationScoped
public class FileService {

    private static final Logger LOG = Logger.getLogger(FileService.class);
    private static final int MAX_NAME = 255;
    private static final Pattern CONTENT_TYPE = Pattern.compile("[a-z0-9][a-z0-9.+-]*/[a-z0-9][a-z0-9.+-]*");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
    private static final int SWEEP_BATCH = 500;
    private static final int BUFFER = 64 * 1024;

    private final Database database;
    private final FileStore files;
    private final ObjectStore store;
    private final FileConfig config;

    public FileService(Database database, FileStore files, ObjectStore store, FileConfig config) {
        this.database = database;
        this.files = files;
        this.store = store;
        this.config = config;
    }

    public UploadTicket upload(String appId, long owner, UploadRequest body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        String name = body.name();
        if (name == null || name.isBlank() || name.length() > MAX_NAME) {
            throw ApiException.badParameter("name", "1 to " + MAX_NAME + " characters");
        }
        StorableText.check("name", name);
        String contentType = body.contentType();
        if (contentType == null || contentType.length() > 127 || !CONTENT_TYPE.matcher(contentType).matches()) {
            throw ApiException.badParameter("content_type", "a lower-case media type such as image/jpeg");
        }
        if (body.size() == null || body.size() < 1) {
            throw ApiException.badParameter("size", "a positive number of bytes");
        }
        if (body.sha256() == null || !SHA256.matcher(body.sha256()).matches()) {
            throw ApiException.badParameter("sha256", "64 hex digits (the SHA-256 of the bytes)");
        }
        // the declared type's kind; completion checks the bytes are that type and checks the limit again
        checkLimit(appId, MagicBytes.kindOf(contentType).orElse(FileKind.FILE), body.size());
        byte[] sha256 = HexFormat.of().parseHex(body.sha256());
        FileRow file = database.autoCommit(c -> files.insert(c, appId, owner, name, body.size(), sha256, contentType));
        ObjectStore.PresignedUpload put = store.presignUpload(file.objectKey(), body.size(), contentType, sha256,
                config.uploadExpiry());
        return new UploadTicket(file.fileId(), put.url(), put.headers(), put.expiresAt().getEpochSecond());
    }

    /**
     * Checks the uploaded bytes and makes the file usable; a second call answers the same. Bytes that fail a check
     * are deleted with the upload (the client starts again); bytes not there yet leave the upload as it was.
     */
    public CompletedFile complete(String appId, long caller, CompleteRequest body) {
        long fileId = requireFileId(body == null ? null : body.fileId());
        FileRow file = find(appId, fileId);
        if (file.ownerId() != caller) {
            throw new ApiException(ErrorCode.FILE_NO_ACCESS, "file_id: only its uploader completes a file");
        }
        if (file.completed()) {
            return CompletedFile.of(file);
        }
        Measured measured;
        try {
            measured = measure(file);
        } catch (ApiException refused) {
            if (refused.errorCode() != ErrorCode.UNAVAILABLE && refused.errorCode() != ErrorCode.FILE_NOT_COMPLETED) {
                store.delete(List.of(file.objectKey()));
                database.autoCommit(c -> {
                    files.delete(c, fileId);
                    return null;
                });
            }
            throw refused;
        }
        // a concurrent call completed it first: answer what it stored
        return CompletedFile.of(database.autoCommit(c -> files.complete(c, fileId, measured))
                .orElseGet(() -> find(appId, fileId)));
    }

    /** Presigned GETs for the uploader and for whoever received a message carrying the file. */
    public DownloadLink download(String appId, long viewer, long fileId) {
        FileRow file = find(appId, fileId);
        if (!file.completed()) {
            throw new ApiException(ErrorCode.FILE_NOT_COMPLETED, "file_id: file " + fileId + " is not completed");
        }
        if (file.ownerId() != viewer && !database.read(c -> files.viewable(c, appId, fileId, viewer))) {
            throw new ApiException(ErrorCode.FILE_NO_ACCESS, "file_id: not in a conversation that received file "
                    + fileId);
        }
        Instant expires = Instant.now().plus(config.downloadExpiry());
        String thumbnail = file.thumbnailKey() == null ? null
                : store.presignDownload(file.thumbnailKey(), config.downloadExpiry());
        return new DownloadLink(store.presignDownload(file.objectKey(), config.downloadExpiry()),
                expires.getEpochSecond(), thumbnail);
    }

    /** A page of the user's files, newest first (the console's user page). */
    public UserFiles ownedBy(String appId, long owner, long before, int limit) {
        List<UserFiles.UserFile> page = database.read(c -> files.ownedBy(c, appId, owner, before, limit + 1));
        if (page.size() <= limit) {
            return new UserFiles(page, null);
        }
        List<UserFiles.UserFile> shown = page.subList(0, limit);
        return new UserFiles(List.copyOf(shown), shown.getLast().fileId());
    }

    public FileStore.Usage usage(String appId) {
        return database.read(c -> files.usage(c, appId));
    }

    /** Deletes uploads never completed within im.file.incomplete-retention, with their objects. */
    @Scheduled(every = "${im.file.sweep-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweepIncomplete() {
        Instant before = Instant.now().minus(config.incompleteRetention());
        List<Expired> batch;
        do {
            batch = database.read(c -> files.uploadingSince(c, before, SWEEP_BATCH));
            if (batch.isEmpty()) {
                return;
            }
            List<Expired> candidates = batch;
            // objects first: a row deleted before its object would leave the object behind for good
            store.delete(candidates.stream().map(Expired::objectKey).toList());
            List<Expired> deleted = database.autoCommit(c -> files.deleteUploading(c, candidates));
            LOG.infof("deleted %d uploads never completed", deleted.size());
        } while (batch.size() == SWEEP_BATCH);
    }

    static long requireFileId(Long fileId) {
        if (fileId == null || fileId < 1) {
            throw ApiException.badParameter("file_id", "a positive integer required");
        }
        return fileId;
    }

    /** The app's file; another app's file_id does not exist here. */
    FileRow find(String appId, long fileId) {
        return database.read(c -> files.find(c, appId, fileId))
                .orElseThrow(() -> new ApiException(ErrorCode.FILE_NOT_FOUND, "file_id: no file " + fileId));
    }

    private void checkLimit(String appId, FileKind kind, long size) {
        long limit = config.apps().getOrDefault(appId, config.limits()).of(kind);
        if (limit == 0) {
            throw new ApiException(ErrorCode.FILE_TYPE_REFUSED, "content_type: this app takes no " + kind.wireName()
                    + " files");
        }
        if (size > limit) {
            throw new ApiException(ErrorCode.FILE_TOO_LARGE, "size: " + kind.wireName() + " files of this app are at most "
                    + limit + " bytes");
        }
    }

    /** Reads the object once, streaming: its size, SHA-256 and first bytes; then the image's thumbnail. */
    private Measured measure(FileRow file) {
        MessageDigest digest = sha256();
        byte[] head = new byte[MagicBytes.HEAD];
        int headLength = 0;
        long size = 0;
        Optional<InputStream> object = store.open(file.objectKey());
        if (object.isEmpty()) {
            throw new ApiException(ErrorCode.FILE_NOT_COMPLETED, "file_id: nothing uploaded yet for file "
                    + file.fileId());
        }
        try (InputStream in = object.get()) {
            byte[] buffer = new byte[BUFFER];
            for (int n; (n = in.read(buffer)) > 0; ) {
                if (headLength < head.length) {
                    int copied = Math.min(n, head.length - headLength);
                    System.arraycopy(buffer, 0, head, headLength, copied);
                    headLength += copied;
                }
                digest.update(buffer, 0, n);
                size += n;
                if (size > file.declaredSize()) {
                    break; // closing the stream drops the rest
                }
            }
        } catch (IOException | SdkClientException e) {
            throw ObjectStore.unavailable(e);
        }
        if (size != file.declaredSize()) {
            throw new ApiException(ErrorCode.FILE_CONTENT_MISMATCH, "size: declared " + file.declaredSize()
                    + " bytes, uploaded " + (size > file.declaredSize() ? "more" : String.valueOf(size)));
        }
        if (!Arrays.equals(digest.digest(), file.sha256())) {
            throw new ApiException(ErrorCode.FILE_CONTENT_MISMATCH, "sha256: the uploaded bytes have another hash");
        }
        MagicBytes.Detected detected = MagicBytes.detect(head, headLength);
        String contentType = detected.contentType().equals(MagicBytes.UNKNOWN) && !MagicBytes.known(file.contentType())
                ? file.contentType() : detected.contentType();
        if (!contentType.equals(file.contentType())) {
            throw new ApiException(ErrorCode.FILE_TYPE_REFUSED, "content_type: declared " + file.contentType()
                    + ", the bytes are " + detected.contentType());
        }
        checkLimit(file.appId(), detected.kind(), size);
        if (!Thumbnails.supports(contentType)) {
            return new Measured(size, contentType, detected.kind(), null, null, null);
        }
        return thumbnail(file, size, contentType, detected.kind());
    }

    /**
     * JPEG and PNG: dimensions and a thumbnail, stored beside the file. An image that does not decode (corrupt after
     * its signature, or the store failing mid-read) is kept without them: its bytes passed every check.
     */
    private Measured thumbnail(FileRow file, long size, String contentType, FileKind kind) {
        Optional<Thumbnails.Result> image;
        try (InputStream in = store.open(file.objectKey()).orElseThrow(() -> new ApiException(
                ErrorCode.FILE_NOT_COMPLETED, "file_id: file " + file.fileId() + " disappeared from the store"))) {
            image = Thumbnails.of(in, contentType, config.thumbnailSize(), config.thumbnailMaxPixels());
        } catch (IOException e) {
            image = Optional.empty();
        }
        if (image.isEmpty()) {
            LOG.infof("file %d: %s that does not decode, kept without a thumbnail", file.fileId(), contentType);
            return new Measured(size, contentType, kind, null, null, null);
        }
        String thumbnailKey = null;
        if (image.get().thumbnail().isPresent()) {
            thumbnailKey = file.objectKey() + ".thumb";
            store.put(thumbnailKey, image.get().thumbnail().get(), Thumbnails.thumbnailType(contentType));
        }
        return new Measured(size, contentType, kind, image.get().width(), image.get().height(), thumbnailKey);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

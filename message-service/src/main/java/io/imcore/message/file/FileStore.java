package io.imcore.message.file;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The files table (V7__files.sql): plain statements, each one round trip on an index. */
@ApplicationScoped
public class FileStore {

    static final int UPLOADING = 0;
    static final int COMPLETED = 1;

    /** A file as stored; the measured fields ({@code size}, {@code kind}...) are null until it is completed. */
    record FileRow(long fileId, String appId, long ownerId, String objectKey, String name, long declaredSize,
            Long size, byte[] sha256, String contentType, FileKind kind, int state, Integer width, Integer height,
            String thumbnailKey) {

        boolean completed() {
            return state == COMPLETED;
        }
    }

    /** What completion measured. */
    record Measured(long size, String contentType, FileKind kind, Integer width, Integer height,
            String thumbnailKey) {}

    /** An upload to delete: its row and its object. */
    record Expired(long fileId, String objectKey) {}

    public record Usage(long files, long bytes) {}

    /** {@link #viewable}'s statement: viewer, file_id, app_id. */
    static final String VIEWABLE = """
            select 1 from messages m
            join conversations v on v.id = m.conversation_id
            join conversation_members cm on cm.conversation_id = m.conversation_id and cm.user_id = ?
            where (substring(m.attachment from '^\\{"file_id":([0-9]{1,18})[,}]')::bigint) = ?
              and m.attachment like '{"file_id":%'
              and v.app_id = ? and (v.kind <> 2 or cm.floor_seq < m.seq)
            limit 1""";

    /** {@link #ownedBy}'s statement: app_id, owner_id, before (file_id), limit. */
    static final String OWNED_BY = """
            select f.file_id, f.name, f.content_type, f.kind, coalesce(f.size, f.declared_size), f.state, f.width,
                f.height, f.thumbnail_key is not null, f.created_at,
                (select min(m.msg_id) from messages m
                 where (substring(m.attachment from '^\\{"file_id":([0-9]{1,18})[,}]')::bigint) = f.file_id
                   and m.attachment like '{"file_id":%')
            from files f
            where f.app_id = ? and f.owner_id = ? and f.file_id < ?
            order by f.file_id desc
            limit ?""";

    private static final String COLUMNS = "file_id, app_id, owner_id, object_key, name, declared_size, size, sha256, "
            + "content_type, kind, state, width, height, thumbnail_key";

    /** A new upload; its object key is the app's prefix and the file's id. */
    FileRow insert(Connection c, String appId, long ownerId, String name, long declaredSize, byte[] sha256,
            String contentType) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                with id as (select nextval('file_ids') as v)
                insert into files (file_id, app_id, owner_id, object_key, name, declared_size, sha256, content_type)
                select v, ?, ?, ? || v, ?, ?, ?, ? from id
                returning\s""" + COLUMNS)) {
            s.setString(1, appId);
            s.setLong(2, ownerId);
            s.setString(3, appId + "/");
            s.setString(4, name);
            s.setLong(5, declaredSize);
            s.setBytes(6, sha256);
            s.setString(7, contentType);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return row(r);
            }
        }
    }

    Optional<FileRow> find(Connection c, String appId, long fileId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select " + COLUMNS
                + " from files where file_id = ? and app_id = ?")) {
            s.setLong(1, fileId);
            s.setString(2, appId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(row(r)) : Optional.empty();
            }
        }
    }

    /**
     * Marks an upload completed with what was measured and returns the completed row; empty when it was no longer
     * uploading (a concurrent call).
     */
    Optional<FileRow> complete(Connection c, long fileId, Measured measured) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update files set state = 1, size = ?, content_type = ?, kind = ?, width = ?, height = ?,
                    thumbnail_key = ?, completed_at = now()
                where file_id = ? and state = 0
                returning\s""" + COLUMNS)) {
            s.setLong(1, measured.size());
            s.setString(2, measured.contentType());
            s.setInt(3, measured.kind().contentType.ordinal());
            setInteger(s, 4, measured.width());
            setInteger(s, 5, measured.height());
            s.setString(6, measured.thumbnailKey());
            s.setLong(7, fileId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(row(r)) : Optional.empty();
            }
        }
    }

    void delete(Connection c, long fileId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from files where file_id = ?")) {
            s.setLong(1, fileId);
            s.executeUpdate();
        }
    }

    /** Up to {@code limit} uploads started before {@code before} and never completed, oldest first. */
    List<Expired> uploadingSince(Connection c, Instant before, int limit) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                select file_id, object_key from files where state = 0 and created_at < ?
                order by created_at limit ?""")) {
            s.setTimestamp(1, Timestamp.from(before));
            s.setInt(2, limit);
            List<Expired> expired = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    expired.add(new Expired(r.getLong(1), r.getString(2)));
                }
            }
            return expired;
        }
    }

    /** Deletes those uploads unless one was completed meanwhile; returns the ones deleted. */
    List<Expired> deleteUploading(Connection c, List<Expired> uploads) throws SQLException {
        Long[] ids = uploads.stream().map(Expired::fileId).toArray(Long[]::new);
        try (PreparedStatement s = c.prepareStatement(
                "delete from files where file_id = any(?) and state = 0 returning file_id, object_key")) {
            s.setArray(1, c.createArrayOf("bigint", ids));
            List<Expired> deleted = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    deleted.add(new Expired(r.getLong(1), r.getString(2)));
                }
            }
            return deleted;
        }
    }

    /** The app's completed files and their bytes (an index-only sum over files_by_app). */
    public Usage usage(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "select count(*), coalesce(sum(size), 0) from files where app_id = ? and state = 1")) {
            s.setString(1, appId);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return new Usage(r.getLong(1), r.getLong(2));
            }
        }
    }

    /**
     * Up to {@code limit} files the user uploaded with ids below {@code before}, newest first, each with the first
     * message carrying it: a range of files_by_owner, and one probe of messages_by_file per file.
     */
    List<UserFiles.UserFile> ownedBy(Connection c, String appId, long owner, long before, int limit)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(OWNED_BY)) {
            s.setString(1, appId);
            s.setLong(2, owner);
            s.setLong(3, before);
            s.setInt(4, limit);
            List<UserFiles.UserFile> found = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    int kind = r.getInt(4);
                    String type = r.wasNull() ? null : FileKind.of(kind).wireName();
                    int width = r.getInt(7);
                    Integer w = r.wasNull() ? null : width;
                    int height = r.getInt(8);
                    Integer h = r.wasNull() ? null : height;
                    long msgId = r.getLong(11);
                    Long carrier = r.wasNull() ? null : msgId;
                    found.add(new UserFiles.UserFile(r.getLong(1), r.getString(2), r.getString(3), type, r.getLong(5),
                            r.getInt(6) == COMPLETED ? "completed" : "uploading", w, h, r.getBoolean(9),
                            r.getTimestamp(10).toInstant().getEpochSecond(), carrier));
                }
            }
            return found;
        }
    }

    /**
     * Whether {@code viewer} was a member of a conversation of the app when a message carrying the file was sent to
     * it: in a direct conversation either user; in a group a member whose floor (set on joining, moved by deleting
     * the conversation) is below the message. Uses messages_by_file, whose expression this repeats exactly.
     */
    boolean viewable(Connection c, String appId, long fileId, long viewer) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(VIEWABLE)) {
            s.setLong(1, viewer);
            s.setLong(2, fileId);
            s.setString(3, appId);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    private static void setInteger(PreparedStatement s, int index, Integer value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.INTEGER);
        } else {
            s.setInt(index, value);
        }
    }

    private static FileRow row(ResultSet r) throws SQLException {
        long size = r.getLong(7);
        Long measured = r.wasNull() ? null : size;
        int kind = r.getInt(10);
        FileKind fileKind = r.wasNull() ? null : FileKind.of(kind);
        int width = r.getInt(12);
        Integer w = r.wasNull() ? null : width;
        int height = r.getInt(13);
        Integer h = r.wasNull() ? null : height;
        return new FileRow(r.getLong(1), r.getString(2), r.getLong(3), r.getString(4), r.getString(5), r.getLong(6),
                measured, r.getBytes(8), r.getString(9), fileKind, r.getInt(11), w, h, r.getString(14));
    }
}

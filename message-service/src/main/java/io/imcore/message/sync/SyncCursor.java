package io.imcore.message.sync;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * A position in one user's change log, opaque on the wire: base64url of {@code user:position:app checksum}, so a
 * cursor of another user or app is recognised (21003) rather than read as this user's.
 */
public record SyncCursor(long position) {

    public String encode(String appId, long userId) {
        String text = userId + ":" + position + ":" + appChecksum(appId);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The caller's cursor: 10002 naming {@code field} when it is not a cursor, 21003 when it is someone else's. */
    public static SyncCursor decode(String field, String cursor, String appId, long userId) {
        String[] parts;
        try {
            parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(":", -1);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParameter(field, "not a cursor of /message/sync");
        }
        long user;
        long position;
        long checksum;
        try {
            if (parts.length != 3) {
                throw new NumberFormatException();
            }
            user = Long.parseLong(parts[0]);
            position = Long.parseLong(parts[1]);
            checksum = Long.parseLong(parts[2]);
        } catch (NumberFormatException e) {
            throw ApiException.badParameter(field, "not a cursor of /message/sync");
        }
        if (position < 0) {
            throw ApiException.badParameter(field, "not a cursor of /message/sync");
        }
        if (user != userId || checksum != appChecksum(appId)) {
            throw new ApiException(ErrorCode.SYNC_CURSOR_EXPIRED, field + ": a cursor of another user");
        }
        return new SyncCursor(position);
    }

    private static long appChecksum(String appId) {
        CRC32 crc = new CRC32();
        crc.update(appId.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }
}

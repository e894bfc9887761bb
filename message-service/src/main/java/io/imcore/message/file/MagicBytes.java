package io.imcore.message.file;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * A file's type by its first bytes, never by its name or the client's word (docs/files.md "Types"). A file whose
 * bytes match no signature is an {@code application/octet-stream} FILE, and may not claim a type of this table.
 */
final class MagicBytes {

    /** How many first bytes the detection reads. */
    static final int HEAD = 32;

    static final String UNKNOWN = "application/octet-stream";

    record Detected(String contentType, FileKind kind) {}

    /** {@code bytes} at {@code offset}; null bytes in {@code bytes} match anything. */
    private record Signature(int offset, Integer[] bytes, Detected detected) {

        boolean matches(byte[] head, int length) {
            if (offset + bytes.length > length) {
                return false;
            }
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] != null && (head[offset + i] & 0xff) != bytes[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    // order matters where one signature is a prefix of another (RIFF: WebP or WAV; ftyp: by its brand)
    private static final List<Signature> SIGNATURES = List.of(
            hex(0, "FF D8 FF", "image/jpeg", FileKind.IMAGE),
            hex(0, "89 50 4E 47 0D 0A 1A 0A", "image/png", FileKind.IMAGE),
            text(0, "GIF87a", "image/gif", FileKind.IMAGE),
            text(0, "GIF89a", "image/gif", FileKind.IMAGE),
            hex(0, "52 49 46 46 ?? ?? ?? ?? 57 45 42 50", "image/webp", FileKind.IMAGE),
            hex(0, "52 49 46 46 ?? ?? ?? ?? 57 41 56 45", "audio/wav", FileKind.AUDIO),
            text(4, "ftypM4A ", "audio/mp4", FileKind.AUDIO),
            text(4, "ftypqt  ", "video/quicktime", FileKind.VIDEO),
            text(4, "ftyp", "video/mp4", FileKind.VIDEO),
            text(0, "OggS", "audio/ogg", FileKind.AUDIO),
            text(0, "#!AMR\n", "audio/amr", FileKind.AUDIO),
            text(0, "ID3", "audio/mpeg", FileKind.AUDIO),
            hex(0, "FF FB", "audio/mpeg", FileKind.AUDIO),
            hex(0, "FF F1", "audio/aac", FileKind.AUDIO),
            hex(0, "FF F9", "audio/aac", FileKind.AUDIO),
            text(0, "%PDF-", "application/pdf", FileKind.FILE),
            hex(0, "50 4B 03 04", "application/zip", FileKind.FILE));

    private MagicBytes() {
    }

    static Detected detect(byte[] head, int length) {
        for (Signature signature : SIGNATURES) {
            if (signature.matches(head, length)) {
                return signature.detected();
            }
        }
        return new Detected(UNKNOWN, FileKind.FILE);
    }

    /** Whether some signature stands for {@code contentType} (a file claiming it must have that signature). */
    static boolean known(String contentType) {
        return SIGNATURES.stream().anyMatch(s -> s.detected().contentType().equals(contentType));
    }

    /** The kind a declared content type will have if the bytes agree (limits are checked before the upload). */
    static Optional<FileKind> kindOf(String contentType) {
        return SIGNATURES.stream().map(Signature::detected).filter(d -> d.contentType().equals(contentType))
                .map(Detected::kind).findFirst();
    }

    private static Signature hex(int offset, String hex, String contentType, FileKind kind) {
        String[] parts = hex.split(" ");
        Integer[] bytes = new Integer[parts.length];
        for (int i = 0; i < parts.length; i++) {
            bytes[i] = parts[i].equals("??") ? null : Integer.parseInt(parts[i], 16);
        }
        return new Signature(offset, bytes, new Detected(contentType, kind));
    }

    private static Signature text(int offset, String ascii, String contentType, FileKind kind) {
        byte[] raw = ascii.getBytes(StandardCharsets.US_ASCII);
        Integer[] bytes = new Integer[raw.length];
        for (int i = 0; i < raw.length; i++) {
            bytes[i] = raw[i] & 0xff;
        }
        return new Signature(offset, bytes, new Detected(contentType, kind));
    }
}

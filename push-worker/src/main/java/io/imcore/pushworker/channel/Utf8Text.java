package io.imcore.pushworker.channel;

import java.nio.charset.StandardCharsets;

/** Text measured and cut in UTF-8 bytes, for providers whose payload limits are byte counts (APNs, FCM). */
public final class Utf8Text {

    public static final String ELLIPSIS = "\u2026";

    private Utf8Text() {}

    public static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The text cut by at least {@code excess} UTF-8 bytes (whole code points) with an ellipsis, or "". */
    public static String shorten(String text, int excess) {
        int keep = bytes(text) - excess - bytes(ELLIPSIS);
        if (keep <= 0) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        int used = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (used + size > keep) {
                break;
            }
            out.appendCodePoint(cp);
            used += size;
            i += Character.charCount(cp);
        }
        return out.append(ELLIPSIS).toString();
    }
}

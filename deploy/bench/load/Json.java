// Just enough JSON for the envelope's answers: no parser, a look-up by name.

import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class Json {

    private Json() {}

    /** The envelope's code: the first "code" member, which the envelope writes first. */
    static int code(String body) {
        int at = body.indexOf("\"code\":");
        if (at < 0) {
            return -1;
        }
        int i = at + 7;
        while (i < body.length() && body.charAt(i) == ' ') {
            i++;
        }
        int value = 0;
        boolean any = false;
        for (; i < body.length() && Character.isDigit(body.charAt(i)); i++) {
            value = value * 10 + (body.charAt(i) - '0');
            any = true;
        }
        return any ? value : -1;
    }

    /** The first member called name, unquoted: a string's text, or a number, boolean or null as written. */
    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[-\\w.]+)")
                .matcher(json);
        if (!m.find()) {
            return null;
        }
        return m.group(2) != null ? m.group(2) : m.group(1);
    }

    static String abbreviate(String text) {
        return text == null ? "null" : text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    /** ids[from..to) as a JSON array. */
    static String ids(long[] ids, int from, int to) {
        StringBuilder b = new StringBuilder("[");
        for (int i = from; i < to; i++) {
            b.append(i == from ? "" : ",").append(ids[i]);
        }
        return b.append(']').toString();
    }
}

package io.imcore.console.page;

import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A CSV download (RFC 4180: CRLF line ends, a cell with a quote, comma or line break quoted, quotes doubled). A cell
 * that a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading
 * apostrophe, as OWASP's "CSV Injection" page advises, so that a push title like {@code =HYPERLINK(...)} stays text.
 * The file starts with a UTF-8 byte order mark, without which Excel reads UTF-8 (Chinese titles) as a legacy code page.
 */
public final class Csv {

    public static final String MEDIA_TYPE = "text/csv; charset=utf-8";
    private static final String BYTE_ORDER_MARK = "\uFEFF";
    /** UTC without the zone's name, which spreadsheets read as a date and time. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private final StringBuilder text = new StringBuilder(BYTE_ORDER_MARK);

    public Csv(List<String> header) {
        row(header);
    }

    /** Adds a row; a null cell is empty. */
    public Csv row(List<?> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(cell(cells.get(i)));
        }
        text.append("\r\n");
        return this;
    }

    static String cell(Object value) {
        if (value == null) {
            return "";
        }
        String cell = value.toString();
        if (!(value instanceof Number) && !cell.isEmpty() && "=+-@\t\r".indexOf(cell.charAt(0)) >= 0) {
            cell = "'" + cell;
        }
        if (cell.indexOf('"') >= 0 || cell.indexOf(',') >= 0 || cell.indexOf('\n') >= 0 || cell.indexOf('\r') >= 0
                || cell.startsWith("'")) {
            cell = '"' + cell.replace("\"", "\"\"") + '"';
        }
        return cell;
    }

    /** Epoch milliseconds as a UTC cell; null (an empty cell) when absent. */
    public static String time(Object epochMillis) {
        return epochMillis instanceof Number n ? TIME.format(Instant.ofEpochMilli(n.longValue())) : null;
    }

    /** The file as an attachment named {@code filename} (letters, digits, '-', '_' and '.' only). */
    public Response download(String filename) {
        return Response.ok(text.toString()).type(MEDIA_TYPE)
                .header("Content-Disposition", "attachment; filename=\"" + filename + "\"").build();
    }
}

package io.imcore.console.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {

    @Test
    void quotesCommasLineBreaksAndQuotes() {
        assertEquals("plain", Csv.cell("plain"));
        assertEquals("\"a,b\"", Csv.cell("a,b"));
        assertEquals("\"two\nlines\"", Csv.cell("two\nlines"));
        assertEquals("\"say \"\"hi\"\"\"", Csv.cell("say \"hi\""));
        assertEquals("", Csv.cell(null));
        assertEquals("中文标题", Csv.cell("中文标题"));
    }

    @Test
    void aCellASpreadsheetWouldReadAsAFormulaStaysText() {
        for (String formula : List.of("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx")) {
            String cell = Csv.cell(formula);
            assertEquals("\"'" + formula + "\"", cell, formula);
        }
        assertEquals("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"", Csv.cell("=HYPERLINK(\"http://x\",\"y\")"));
        assertEquals("-3", Csv.cell(-3L), "a number is a number");
        assertEquals("a=b", Csv.cell("a=b"), "only the first character counts");
    }

    @Test
    void aDownloadHasAByteOrderMarkAHeaderRowAndCrlfLines() {
        Response response = new Csv(List.of("a", "b")).row(Arrays.asList(1, null)).row(List.of("x,y", "z"))
                .download("f.csv");
        assertEquals("\uFEFFa,b\r\n1,\r\n\"x,y\",z\r\n", response.getEntity());
        assertEquals("attachment; filename=\"f.csv\"", response.getHeaderString("Content-Disposition"));
        assertEquals("text/csv", response.getMediaType().getType() + "/" + response.getMediaType().getSubtype());
        assertEquals("utf-8", response.getMediaType().getParameters().get("charset"));
    }
}

package io.imcore.console.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The templates hold nothing the Content-Security-Policy ({@link SecurityHeaders}) would block: no inline script
 * (a script element without src, an on... handler, a javascript: URL) and no inline style (a style element or
 * attribute). Scripts are static files under META-INF/resources.
 */
class TemplatesTest {

    private static final Path TEMPLATES = Path.of("src/main/resources/templates");
    private static final List<Pattern> INLINE = List.of(
            Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\son[a-z]+\\s*=", Pattern.CASE_INSENSITIVE),
            Pattern.compile("javascript:", Pattern.CASE_INSENSITIVE),
            Pattern.compile("<style[\\s>]", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\sstyle\\s*=", Pattern.CASE_INSENSITIVE));

    @Test
    void noTemplateHasAnInlineScriptOrStyle() throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> templates;
        try (Stream<Path> files = Files.walk(TEMPLATES)) {
            templates = files.filter(file -> file.toString().endsWith(".html")).toList();
        }
        assertFalse(templates.isEmpty(), "no templates under " + TEMPLATES.toAbsolutePath());
        for (Path template : templates) {
            String text = Files.readString(template);
            for (Pattern pattern : INLINE) {
                Matcher matcher = pattern.matcher(text);
                while (matcher.find()) {
                    found.add(template.getFileName() + ": " + matcher.group());
                }
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void theCheckFindsInlineScriptAndStyle() {
        String page = "<script>alert(1)</script><button onclick=\"x()\"><a href=\"javascript:x()\">"
                + "<style>p{}</style><span style=\"width:1%\"><script src=\"/console/copy.js\"></script>";
        assertEquals(5, INLINE.stream().filter(pattern -> pattern.matcher(page).find()).count());
        assertFalse(INLINE.get(0).matcher("<script src=\"/console/copy.js\"></script>").find());
    }
}

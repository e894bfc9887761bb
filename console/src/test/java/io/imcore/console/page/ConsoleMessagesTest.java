package io.imcore.console.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.qute.i18n.Message;
import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Chinese file translates every English message with the same parameters. Quarkus refuses a key without a method
 * at build time, but it silently shows the English text for a method the file lacks: this test fails instead.
 */
class ConsoleMessagesTest {

    private static final Path CHINESE = Path.of("src/main/resources/messages/msg_zh-CN.properties");
    private static final Pattern PARAMETER = Pattern.compile("\\{(\\w+)}");

    @Test
    void chineseHasEveryMessageWithItsParameters() throws IOException {
        Properties chinese = new Properties();
        try (Reader reader = Files.newBufferedReader(CHINESE, StandardCharsets.UTF_8)) {
            chinese.load(reader);
        }
        TreeMap<String, String> wrong = new TreeMap<>();
        for (Method method : ConsoleMessages.class.getDeclaredMethods()) {
            String text = chinese.getProperty(method.getName());
            Set<String> parameters = new TreeSet<>(
                    Arrays.stream(method.getParameters()).map(Parameter::getName).toList());
            if (text == null || text.isBlank()) {
                wrong.put(method.getName(), "missing");
            } else if (!parameters.equals(parameters(text))) {
                wrong.put(method.getName(), "parameters " + parameters(text) + ", not " + parameters);
            }
        }
        assertEquals(new TreeMap<>(), wrong);
    }

    private static Set<String> parameters(String text) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = PARAMETER.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }
}

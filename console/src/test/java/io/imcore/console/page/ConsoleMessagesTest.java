package io.imcore.console.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.console.push.PushMessages;
import io.imcore.console.webhook.WebhookMessages;
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
 * The Chinese files translate every English message of the bundles with the same parameters. Quarkus refuses a key without a method
 * at build time, but it silently shows the English text for a method the file lacks: this test fails instead.
 */
class ConsoleMessagesTest {

    private static final Path MESSAGES = Path.of("src/main/resources/messages");
    private static final Pattern PARAMETER = Pattern.compile("\\{(\\w+)}");

    @Test
    void chineseHasEveryMessageWithItsParameters() throws IOException {
        assertEquals(new TreeMap<>(), untranslated(ConsoleMessages.class, "msg_zh-CN.properties"));
        assertEquals(new TreeMap<>(), untranslated(PushMessages.class, "push_zh-CN.properties"));
        assertEquals(new TreeMap<>(), untranslated(WebhookMessages.class, "hook_zh-CN.properties"));
    }

    /** The bundle's methods the file lacks or translates with other parameters, and why. */
    private static TreeMap<String, String> untranslated(Class<?> bundle, String file) throws IOException {
        Properties chinese = new Properties();
        try (Reader reader = Files.newBufferedReader(MESSAGES.resolve(file), StandardCharsets.UTF_8)) {
            chinese.load(reader);
        }
        TreeMap<String, String> wrong = new TreeMap<>();
        for (Method method : bundle.getDeclaredMethods()) {
            String text = chinese.getProperty(method.getName());
            Set<String> parameters = new TreeSet<>(
                    Arrays.stream(method.getParameters()).map(Parameter::getName).toList());
            if (text == null || text.isBlank()) {
                wrong.put(method.getName(), "missing");
            } else if (!parameters.equals(parameters(text))) {
                wrong.put(method.getName(), "parameters " + parameters(text) + ", not " + parameters);
            }
        }
        return wrong;
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

package io.imcore.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The registry lists the topics the environments create: no topic is created that a reader cannot find there. */
class TopicsTest {

    private static final Path DEPLOY = Path.of("..", "deploy");

    @Test
    void prodDeclaresTheRegisteredTopicsAndTheChannelTopicsOnly() throws IOException {
        Set<String> declared = matches(DEPLOY.resolve("k8s/overlays/prod/kafka.yaml"), "topicName: (\\S+)");
        assertTrue(declared.containsAll(registered()), "prod declares " + declared);
        declared.removeAll(registered());
        for (String topic : declared) {
            assertTrue(topic.startsWith(Topics.CHANNEL_PREFIX), topic + " is not in Topics");
        }
    }

    @Test
    void theLocalStackCreatesTheRegisteredTopicsAndTheChannelTopics() throws IOException {
        Set<String> created = matches(DEPLOY.resolve("local/up.sh"), "--topic (\\S+)");
        Set<String> expected = new TreeSet<>(registered());
        expected.add("\"" + Topics.CHANNEL_PREFIX + "$channel\"");
        assertEquals(expected, created);
    }

    private static Set<String> registered() {
        return Arrays.stream(Topics.class.getFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && !field.getName().equals("CHANNEL_PREFIX"))
                .map(TopicsTest::value).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String value(Field constant) {
        try {
            return (String) constant.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> matches(Path file, String regex) throws IOException {
        Set<String> found = new TreeSet<>();
        Matcher matcher = Pattern.compile(regex).matcher(Files.readString(file));
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }
}

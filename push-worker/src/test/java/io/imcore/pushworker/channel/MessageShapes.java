package io.imcore.pushworker.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.PushBatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The message shapes every channel must handle (issue 12, point 5), as normalized messages (docs/push-notify.md "The
 * normalized message"), and the check each channel's adapter test runs over them against its simulator: every shape
 * is accepted, or failed at once with the reason its channel documents. No shape may come back RETRY: a retry of a
 * message the provider refuses whatever happens is five requests for nothing.
 */
public final class MessageShapes {

    /** One shape: its name (also the key of a channel's documented failures) and its normalized message. */
    public record Shape(String name, ObjectNode message) {
        public Notification notification(long taskId) {
            return new Notification(taskId, "app1", message.deepCopy());
        }
    }

    private MessageShapes() {}

    /** Every shape; each call builds them anew (show_end_time is relative to now). */
    public static List<Shape> all() {
        List<Shape> shapes = new ArrayList<>();
        shapes.add(text("title_only", "Hello", ""));
        shapes.add(text("body_only", "", "Hello from the server"));
        shapes.add(text("both_empty", "", ""));
        shapes.add(text("long_cjk", "长".repeat(256), "消息".repeat(2000)));
        Shape bigText = text("big_text", "Hello", "short");
        bigText.message.put("big_text", "详细内容".repeat(1000));
        shapes.add(bigText);
        Shape largeExt = text("large_ext", "Hello", "body");
        ObjectNode ext = largeExt.message.putObject("ext");
        for (int i = 0; i < 100; i++) { // about 4000 bytes: just under our 4096-byte limit of ext
            ext.put("key" + String.format("%03d", i), "v".repeat(28));
        }
        shapes.add(largeExt);
        shapes.add(image("image_http", "http://img.example.com/a.png"));
        shapes.add(image("image_https", "https://img.example.com/a.png"));
        Shape cmd = text("cmd", "", "");
        cmd.message.put("type", "cmd");
        cmd.message.putObject("ext").put("action", "sync").put("seq", 42);
        shapes.add(cmd);
        Shape badgeSet = text("badge_set_past_99", "Hello", "body");
        badgeSet.message.put("badge", "150");
        shapes.add(badgeSet);
        Shape badgeAdd = text("badge_add_past_99", "Hello", "body");
        badgeAdd.message.put("badge", "+110");
        shapes.add(badgeAdd);
        Shape endTime = text("show_end_time", "Hello", "body");
        endTime.message.put("show_end_time", Instant.now().getEpochSecond() + 3 * 3600);
        shapes.add(endTime);
        return shapes;
    }

    /**
     * Sends every shape through {@code send} (one device, the badge number the dispatcher would give for badge shapes)
     * and checks each outcome: ACCEPTED, or FAILED with a reason containing {@code documentedFailures.get(shape)}.
     * A shape listed in {@code documentedFailures} must fail; any other must be accepted.
     */
    public static void assertEveryShapeAcceptedOrFailedAsDocumented(ShapeSender send,
            Map<String, String> documentedFailures) {
        List<String> wrong = new ArrayList<>();
        for (Shape shape : all()) {
            Integer badge = switch (shape.name) {
                case "badge_set_past_99" -> 150;
                case "badge_add_past_99" -> 110;
                default -> 1;
            };
            List<Outcome> outcomes = send.send(shape.notification(1000), badge);
            assertEquals(1, outcomes.size(), shape.name + ": one outcome per delivery");
            Outcome outcome = outcomes.get(0);
            String expectedReason = documentedFailures.get(shape.name);
            if (expectedReason == null) {
                if (outcome.kind() != Outcome.Kind.ACCEPTED) {
                    wrong.add(shape.name + ": expected ACCEPTED, got " + outcome);
                }
            } else if (outcome.kind() != Outcome.Kind.FAILED || outcome.reason() == null
                    || !outcome.reason().contains(expectedReason)) {
                wrong.add(shape.name + ": expected FAILED (" + expectedReason + "), got " + outcome);
            }
        }
        if (!wrong.isEmpty()) {
            fail(String.join("\n", wrong));
        }
        assertTrue(documentedFailures.keySet().stream().allMatch(k -> all().stream().anyMatch(s -> s.name.equals(k))),
                "every documented failure names a shape");
    }

    /** Sends one shape to one device with the given badge number; returns the adapter's outcomes. */
    @FunctionalInterface
    public interface ShapeSender {
        List<Outcome> send(Notification notification, Integer badge);
    }

    /** A sender of one delivery to {@code token}, targeted as the dispatcher gives it (device 2, the certificate's name). */
    public static ShapeSender sender(ChannelAdapter adapter, Credentials credentials, String token) {
        return (notification, badge) -> adapter.send(credentials, notification, List.of(new Delivery(
                new PushBatch.Target(1L, 2L, 1, token, credentials.name(), 1, null), token, badge)));
    }

    private static Shape text(String name, String title, String body) {
        ObjectNode m = AdapterTestSupport.JSON.createObjectNode().put("type", "text").put("title", title)
                .put("body", body).put("badge", "+1");
        m.putObject("channels");
        return new Shape(name, m);
    }

    private static Shape image(String name, String url) {
        Shape shape = text(name, "Photo", "sent you a photo");
        shape.message.put("type", "image").put("attachment_url", url);
        return shape;
    }
}

package io.imcore.push.task;

import io.imcore.push.notify.Audience;
import io.imcore.push.notify.PushRequest;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** data of GET /push/task/scheduled: how many tasks of the app are scheduled, and the requested page of them. */
public record ScheduledPage(long total, List<Task> list) {

    /**
     * A scheduled task as the caller sent it.
     *
     * @param createdAt      acceptance time, epoch milliseconds
     * @param showBeginTime  when it will be expanded, epoch seconds (message.show_begin_time)
     * @param showEndTime    epoch seconds, or null
     * @param audience       the audience in the form of api.md 4.5.2: the string {@code all}, or an object with one
     *                       list (duplicates dropped)
     * @param strategy       setting.distribution_strategy
     */
    public record Task(long taskId, long createdAt, Long showBeginTime, Long showEndTime, String title, String body,
            Object audience, String strategy) {

        static Task of(long taskId, long createdAt, PushRequest request) {
            return new Task(taskId, createdAt, request.showBeginTime(), request.showEndTime(),
                    request.message().path("title").asText(), request.message().path("body").asText(),
                    wireForm(request.audience()), request.strategy().wireName());
        }

        private static Object wireForm(Audience audience) {
            String key = audience.form().name().toLowerCase(Locale.ROOT);
            return switch (audience.form()) {
                case ALL -> key;
                case USER_ID -> Map.of(key, audience.userIds());
                default -> Map.of(key, audience.values());
            };
        }
    }
}

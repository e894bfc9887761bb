package io.imcore.console.push;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;
import java.util.List;

/**
 * push-service's {@code POST /push/audience/count} answer as the composer shows it: the audience's devices, how many
 * are reachable, and the targets per channel in api.md 2.8's order.
 */
@TemplateData
public record AudienceSize(long devices, long targets, List<ChannelTargets> channels) {

    @TemplateData
    public record ChannelTargets(String channel, long targets) {}

    static AudienceSize of(JsonNode data) {
        return new AudienceSize(data.path("devices").asLong(), data.path("targets").asLong(),
                TaskReport.CHANNELS.stream().map(channel ->
                        new ChannelTargets(channel, data.path("channels").path(channel).asLong())).toList());
    }

    public long unreachable() {
        return devices - targets;
    }
}

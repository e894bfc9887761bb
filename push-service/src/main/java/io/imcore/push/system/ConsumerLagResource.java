package io.imcore.push.system;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** The operator's view of push-worker's consumer lag per channel (docs/push-devices.md "Console reads"). */
@Path("/push/system/lag")
@Access(Access.Level.PLATFORM)
@Produces(MediaType.APPLICATION_JSON)
public class ConsumerLagResource {

    private final ConsumerLag lag;

    public ConsumerLagResource(ConsumerLag lag) {
        this.lag = lag;
    }

    @GET
    public ApiResponse<Map<String, List<ConsumerLag.ChannelLag>>> lag() {
        return ApiResponse.ok(Map.of("list", lag.read()));
    }
}

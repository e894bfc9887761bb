package io.imcore.message.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.message.live.LivePush.Target;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;

/**
 * Service-to-service: push-worker hands svcpush notifications to the devices' live connections
 * (docs/api-decisions.md, docs/live-protocol.md). Not routed by the gateway or the Ingress; needs the services'
 * internal-key.
 */
@Path("/internal/live")
@Access(Access.Level.INTERNAL)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalLiveResource {

    /** The size of push-service's svcpush batches. */
    static final int MAX_DEVICES = 500;

    private final LivePush pushes;

    public InternalLiveResource(LivePush pushes) {
        this.pushes = pushes;
    }

    /**
     * {@code {"app_id":..,"task_id":..,"notification":{..},"devices":[{"user_id":..,"device_sn":..,"badge":..},..]}};
     * answers which indexes of devices were handed to a live connection and which are offline.
     */
    @POST
    @Path("/notify")
    public ApiResponse<LiveNotifyResult> notify(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badParameter("body", "must be a JSON object");
        }
        JsonNode appId = body.get("app_id");
        if (appId == null || !appId.isTextual() || appId.asText().isBlank()) {
            throw ApiException.badParameter("app_id", "required");
        }
        long taskId = positiveLong(body.get("task_id"), "task_id");
        if (!(body.get("notification") instanceof ObjectNode notification)) {
            throw ApiException.badParameter("notification", "must be a JSON object");
        }
        return ApiResponse.ok(pushes.notify(appId.asText(), taskId, notification, devices(body.get("devices"))));
    }

    private static List<Target> devices(JsonNode devices) {
        if (devices == null || !devices.isArray() || devices.isEmpty() || devices.size() > MAX_DEVICES) {
            throw ApiException.badParameter("devices", "must be an array of 1 to " + MAX_DEVICES + " devices");
        }
        List<Target> targets = new ArrayList<>(devices.size());
        for (int i = 0; i < devices.size(); i++) {
            JsonNode device = devices.get(i);
            String field = "devices[" + i + "]";
            if (!device.isObject()) {
                throw ApiException.badParameter(field, "must be a JSON object");
            }
            long userId = positiveLong(device.get("user_id"), field + ".user_id");
            JsonNode deviceSn = device.get("device_sn");
            if (deviceSn == null || !deviceSn.isIntegralNumber() || !deviceSn.canConvertToInt() || deviceSn.asInt() < 0) {
                throw ApiException.badParameter(field + ".device_sn", "must be a non-negative integer");
            }
            JsonNode badge = device.get("badge");
            if (badge != null && !badge.isNull() && (!badge.isIntegralNumber() || !badge.canConvertToInt())) {
                throw ApiException.badParameter(field + ".badge", "must be an integer or null");
            }
            targets.add(new Target(userId, deviceSn.asInt(), badge == null || badge.isNull() ? null : badge.asInt()));
        }
        return targets;
    }

    private static long positiveLong(JsonNode value, String field) {
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() <= 0) {
            throw ApiException.badParameter(field, "must be a positive integer");
        }
        return value.asLong();
    }
}

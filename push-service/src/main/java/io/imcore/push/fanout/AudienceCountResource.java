package io.imcore.push.fanout;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.push.notify.NotifyParser;
import io.imcore.push.task.PushQuotaResource;
import io.imcore.throttle.AppQuota;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * POST /push/audience/count (docs/api-decisions.md): a notify body's audience and routing settings, validated as
 * /push/notify validates them, counted per channel without creating a task. Admin token only, like /push/notify,
 * with a per-app quota of its own.
 */
@Path("/push/audience")
@Access(Access.Level.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AudienceCountResource {

    private final RequestContext caller;
    private final NotifyParser parser;
    private final AudienceCounts counts;

    public AudienceCountResource(RequestContext caller, NotifyParser parser, AudienceCounts counts) {
        this.caller = caller;
        this.parser = parser;
        this.counts = counts;
    }

    @POST
    @Path("/count")
    @AppQuota(PushQuotaResource.AUDIENCE_COUNT_QUOTA)
    public ApiResponse<AudienceCounts.Count> count(JsonNode body) {
        return ApiResponse.ok(counts.count(caller.appId(), parser.parseTargeting(body)));
    }
}

package io.imcore.message.group;

import static io.imcore.common.api.QueryParams.optionalLong;
import static io.imcore.common.api.QueryParams.requiredLong;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Read receipts of a group message, for its sender or an admin (docs/api-decisions.md). */
@Path("/message/receipts")
@Produces(MediaType.APPLICATION_JSON)
public class ReadReceiptResource {

    public static final int DEFAULT_PAGE = 100;
    public static final int MAX_PAGE = 500;

    private final RequestContext caller;
    private final GroupService groups;

    public ReadReceiptResource(RequestContext caller, GroupService groups) {
        this.caller = caller;
        this.groups = groups;
    }

    @GET
    public ApiResponse<ReceiptPage> receipts(@QueryParam("group_id") String groupId, @QueryParam("msg_id") String msgId,
            @QueryParam("after_user_id") String afterUserId, @QueryParam("limit") String limit) {
        return ApiResponse.ok(groups.receipts(caller, requiredLong("group_id", groupId, 1, Long.MAX_VALUE),
                requiredLong("msg_id", msgId, 1, Long.MAX_VALUE),
                optionalLong("after_user_id", afterUserId, 0, 0, Long.MAX_VALUE),
                (int) optionalLong("limit", limit, DEFAULT_PAGE, 1, MAX_PAGE)));
    }
}

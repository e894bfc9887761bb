package io.imcore.message.conversation;

import static io.imcore.common.api.QueryParams.optionalLong;
import static io.imcore.common.api.QueryParams.requiredLong;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * What a user sees of their conversations (api.md 4.4, decisions.md section 4): pages, read receipts, deleting a
 * conversation for oneself, unread counts. Sending is the send feature's (/message/send, /message/notify).
 */
@Path("/message")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ConversationResource {

    private final RequestContext caller;
    private final ConversationService conversations;

    public ConversationResource(RequestContext caller, ConversationService conversations) {
        this.caller = caller;
        this.conversations = conversations;
    }

    /** opposite_id: the peer user, a group, or 0 (system); msg_id_start 0 = newest; limit 1..100, default 20. */
    @GET
    @Path("/conversation")
    public ApiResponse<ConversationPage> conversation(@QueryParam("opposite_id") String oppositeId,
            @QueryParam("msg_id_start") String msgIdStart, @QueryParam("limit") String limit) {
        long address = requiredLong("opposite_id", oppositeId, 0, Long.MAX_VALUE);
        long start = optionalLong("msg_id_start", msgIdStart, 0, 0, Long.MAX_VALUE);
        int size = (int) optionalLong("limit", limit, ConversationService.DEFAULT_PAGE, 1, ConversationService.MAX_PAGE);
        return ApiResponse.ok(conversations.page(caller.appId(), caller.requireUserId(), address, start, size));
    }

    /** Read receipt: everything up to msg_id in the conversation is READ for the caller. */
    @GET
    @Path("/ack")
    public ApiResponse<Boolean> ack(@QueryParam("conversation_id") String conversationId,
            @QueryParam("device_sn") String deviceSn, @QueryParam("msg_id") String msgId) {
        long address = requiredLong("conversation_id", conversationId, 0, Long.MAX_VALUE);
        optionalLong("device_sn", deviceSn, 0, 0, Integer.MAX_VALUE);
        long upTo = requiredLong("msg_id", msgId, 1, Long.MAX_VALUE);
        return ApiResponse.ok(conversations.ack(caller.appId(), caller.requireUserId(), address, upTo));
    }

    @DELETE
    @Path("/conversation")
    public ApiResponse<Boolean> delete(@QueryParam("conversation_id") String conversationId) {
        long address = requiredLong("conversation_id", conversationId, 0, Long.MAX_VALUE);
        return ApiResponse.ok(conversations.delete(caller.appId(), caller.requireUserId(), address));
    }

    @GET
    @Path("/unread")
    public ApiResponse<List<UnreadEntry>> unread() {
        return ApiResponse.ok(conversations.unread(caller.appId(), caller.requireUserId()));
    }
}

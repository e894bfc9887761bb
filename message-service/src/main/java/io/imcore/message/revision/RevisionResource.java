package io.imcore.message.revision;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Changing a sent message (docs/api-decisions.md "Recall and edit"): POST /message/recall by its sender within the
 * app's recall window, or an admin at any time; POST /message/edit of a text by its sender within the edit window.
 */
@Path("/message")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RevisionResource {

    private final RequestContext caller;
    private final MessageRevisions revisions;

    public RevisionResource(RequestContext caller, MessageRevisions revisions) {
        this.caller = caller;
        this.revisions = revisions;
    }

    @POST
    @Path("/recall")
    public ApiResponse<Boolean> recall(RecallRequest body) {
        return ApiResponse.ok(revisions.recall(caller, body));
    }

    @POST
    @Path("/edit")
    public ApiResponse<Boolean> edit(EditRequest body) {
        return ApiResponse.ok(revisions.edit(caller, body));
    }
}

package io.imcore.message.revision;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * An app's recall and edit windows, admin token only (docs/api-decisions.md "Recall and edit"): GET reads the
 * windows in force, POST replaces them. The gateway routes /app/message_settings here.
 */
@Path("/app/message_settings")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Access(Access.Level.ADMIN)
public class MessageSettingsResource {

    private final RequestContext caller;
    private final RevisionWindows windows;

    public MessageSettingsResource(RequestContext caller, RevisionWindows windows) {
        this.caller = caller;
        this.windows = windows;
    }

    @GET
    public ApiResponse<MessageSettings> read() {
        return ApiResponse.ok(windows.settings(caller.appId()));
    }

    @POST
    public ApiResponse<MessageSettings> save(MessageSettings body) {
        return ApiResponse.ok(windows.save(caller.appId(), body));
    }
}

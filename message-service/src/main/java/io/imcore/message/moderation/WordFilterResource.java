package io.imcore.message.moderation;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * An app's word filter, admin token only (docs/webhooks.md "The word filter"): GET reads it (data null: none),
 * POST replaces it, POST /edit adds and removes words, DELETE removes it. The gateway routes /app/word_filter here.
 */
@Path("/app/word_filter")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Access(Access.Level.ADMIN)
public class WordFilterResource {

    private final RequestContext caller;
    private final WordFilterService filters;

    public WordFilterResource(RequestContext caller, WordFilterService filters) {
        this.caller = caller;
        this.filters = filters;
    }

    @GET
    public ApiResponse<WordFilterStore.Stored> read() {
        return ApiResponse.ok(filters.read(caller.appId()));
    }

    @POST
    public ApiResponse<WordFilterStore.Stored> replace(WordFilterService.Replace body) {
        return ApiResponse.ok(filters.replace(caller.appId(), body));
    }

    @POST
    @Path("/edit")
    public ApiResponse<WordFilterStore.Stored> edit(WordFilterService.Edit body) {
        return ApiResponse.ok(filters.edit(caller.appId(), body));
    }

    @DELETE
    public ApiResponse<Boolean> delete() {
        return ApiResponse.ok(filters.delete(caller.appId()));
    }
}

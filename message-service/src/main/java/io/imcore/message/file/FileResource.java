package io.imcore.message.file;

import static io.imcore.common.api.QueryParams.optionalLong;
import static io.imcore.common.api.QueryParams.requiredLong;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.throttle.AppQuotas;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Files of image, voice, video and file messages (docs/files.md); the caller is the token's user. An upload and a
 * completion each take one call from the app's quota {@value #QUOTA} (docs/throttling.md).
 */
@Path("/file")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class FileResource {

    public static final String QUOTA = "file";
    /** The most files of a page of GET /file/list, and its default. */
    static final int LIST_LIMIT = 20;

    private final RequestContext caller;
    private final FileService files;
    private final AppQuotas quotas;

    public FileResource(RequestContext caller, FileService files, AppQuotas quotas) {
        this.caller = caller;
        this.files = files;
        this.quotas = quotas;
    }

    /** Declares an upload; the client PUTs the bytes to the answer's URL, then calls /file/complete. */
    @POST
    @Path("/upload")
    public ApiResponse<UploadTicket> upload(UploadRequest body) {
        quotas.consume(QUOTA, "/file/upload", caller.appId());
        return ApiResponse.ok(files.upload(caller.appId(), caller.requireUserId(), body));
    }

    @POST
    @Path("/complete")
    public ApiResponse<CompletedFile> complete(CompleteRequest body) {
        quotas.consume(QUOTA, "/file/complete", caller.appId());
        return ApiResponse.ok(files.complete(caller.appId(), caller.requireUserId(), body));
    }

    @GET
    @Path("/download")
    public ApiResponse<DownloadLink> download(@QueryParam("file_id") String fileId) {
        long id = requiredLong("file_id", fileId, 1, Long.MAX_VALUE);
        return ApiResponse.ok(files.download(caller.appId(), caller.requireUserId(), id));
    }

    /** A page of one user's files, newest first, with the message carrying each (the console's user page). */
    @GET
    @Path("/list")
    @Access(Access.Level.ADMIN)
    public ApiResponse<UserFiles> list(@QueryParam("user_id") String userId, @QueryParam("before") String before,
            @QueryParam("limit") String limit) {
        long owner = requiredLong("user_id", userId, 1, Long.MAX_VALUE);
        return ApiResponse.ok(files.ownedBy(caller.appId(), owner,
                optionalLong("before", before, Long.MAX_VALUE, 1, Long.MAX_VALUE),
                (int) optionalLong("limit", limit, LIST_LIMIT, 1, LIST_LIMIT)));
    }

    /** The app's completed files and their bytes (the console's overview). */
    @GET
    @Path("/usage")
    @Access(Access.Level.ADMIN)
    public ApiResponse<FileStore.Usage> usage() {
        return ApiResponse.ok(files.usage(caller.appId()));
    }
}

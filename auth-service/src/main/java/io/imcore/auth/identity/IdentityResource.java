package io.imcore.auth.identity;

import io.imcore.auth.app.AppStore;
import io.imcore.auth.user.UserStore;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.IdentitySnapshot;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Service-to-service look-up for the other services' auth view (common's {@code IdentityClient}): an app and
 * some of its users as they are now. Not routed by the gateway or the Ingress; needs the services' internal-key.
 */
@Path("/internal")
@Access(Access.Level.INTERNAL)
@Produces(MediaType.APPLICATION_JSON)
public class IdentityResource {

    private static final int MAX_USERS = 500;

    private final AppStore apps;
    private final UserStore users;

    public IdentityResource(AppStore apps, UserStore users) {
        this.apps = apps;
        this.users = users;
    }

    @GET
    @Path("/identity")
    @Transactional
    public ApiResponse<IdentitySnapshot> identity(@QueryParam("app_id") String appId,
            @QueryParam("user_ids") String userIds) {
        if (appId == null || appId.isBlank()) {
            throw ApiException.badParameter("app_id", "required");
        }
        List<Long> ids = parseIds(userIds);
        OptionalInt version = apps.adminTokenVersion(appId);
        List<IdentitySnapshot.User> found = ids.isEmpty() || version.isEmpty() ? List.of()
                : users.inApp(appId, ids).stream()
                        .map(u -> new IdentitySnapshot.User(u.userId, u.tokenVersion, u.disabled)).toList();
        return ApiResponse.ok(new IdentitySnapshot(version.isPresent() ? version.getAsInt() : null, found));
    }

    private static List<Long> parseIds(String csv) {
        List<Long> ids = new ArrayList<>();
        if (csv == null || csv.isBlank()) {
            return ids;
        }
        for (String part : csv.split(",")) {
            try {
                ids.add(Long.parseLong(part.trim()));
            } catch (NumberFormatException e) {
                throw ApiException.badParameter("user_ids", "comma-separated integers");
            }
        }
        if (ids.size() > MAX_USERS) {
            throw ApiException.badParameter("user_ids", "at most " + MAX_USERS);
        }
        return ids;
    }
}

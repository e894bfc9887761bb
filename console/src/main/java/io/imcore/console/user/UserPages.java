package io.imcore.console.user;

import io.imcore.console.backend.BackendClient;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Pages;
import io.imcore.console.page.SessionGuard;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * Users and groups: a user's devices (auth-service) and provider tokens (push-service), disable/enable; a group's
 * info and members (message-service). The admin acts as the user through the services' {@code user_id} header; the
 * group is the {@code group_id} query parameter of message-service's group reads.
 */
@Path("/users")
@Produces(MediaType.TEXT_HTML)
public class UserPages {

    @Inject
    SessionGuard guard;
    @Inject
    BackendClient backend;
    @Inject
    Template users;

    @GET
    public Response lookUp(@Context HttpHeaders headers, @QueryParam("user_id") String userId,
            @QueryParam("group_id") String groupId) {
        ConsoleSession session = guard.requireAdmin(headers);
        TemplateInstance page = Pages.page(users, session).data("userId", Pages.text(userId))
                .data("groupId", Pages.text(groupId));
        Long user = id(userId);
        // a flag, not the lists: Qute's #if treats an empty list (no devices, or a refusal) as false
        page.data("userShown", user != null);
        if (user != null) {
            Map<String, String> asUser = session.credentialsAsUser(user);
            Answer devices = backend.get(Service.AUTH, "/user/device/list", asUser);
            Answer tokens = backend.get(Service.PUSH, "/user/token/list", asUser);
            page.data("devices", withTimes(backend.plainList(devices.data()), "created_at", "last_seen_at"))
                    .data("devicesError", devices.ok() ? null : devices.error())
                    .data("tokens", withTimes(backend.plainList(tokens.ok() && tokens.data() != null
                            ? tokens.data().get("list") : null), "bound_at"))
                    .data("tokensError", tokens.ok() ? null : tokens.error());
        }
        page.data("userError", userId != null && !userId.isBlank() && user == null ? "user_id must be a number" : null);
        Long group = id(groupId);
        page.data("groupShown", group != null);
        if (group != null) {
            // message-service reads group_id from the query, not from a header (GroupResource)
            Answer info = backend.get(Service.MESSAGE, "/group/info?group_id=" + group, session.credentials());
            Answer members = backend.get(Service.MESSAGE, "/group/member_list?group_id=" + group,
                    session.credentials());
            page.data("groupInfo", info.ok() ? backend.plain(info.data()) : null)
                    .data("groupError", info.ok() ? null : info.error())
                    .data("members", withTimes(backend.plainList(members.data()), "joined_at"))
                    .data("membersError", members.ok() ? null : members.error());
        }
        page.data("groupIdError",
                groupId != null && !groupId.isBlank() && group == null ? "group_id must be a number" : null);
        return Response.ok(page).build();
    }

    /** PUT /user/disable or /user/enable for one user, then back to the user's page with the outcome. */
    @POST
    @Path("state")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response switchUser(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("user_id") String userId, @FormParam("action") String action) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        Long user = id(userId);
        if (user == null || !List.of("disable", "enable").contains(action)) {
            session.setNotice("Nothing changed: a numeric user_id and disable or enable are needed.");
            return Pages.redirect("/users");
        }
        Answer answer = backend.put(Service.AUTH, "/user/" + action, session.credentials(),
                Map.of("list", List.of(user)));
        session.setNotice(answer.ok() ? "User " + user + " " + action + "d."
                : "User " + user + " not " + action + "d: " + answer.error());
        return Pages.redirect("/users?user_id=" + user);
    }

    private static Long id(String text) {
        try {
            return text == null || text.isBlank() ? null : Long.valueOf(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static List<Map<String, Object>> withTimes(List<Map<String, Object>> rows, String... fields) {
        for (Map<String, Object> row : rows) {
            for (String field : fields) {
                row.put(field + "_text", Pages.time(row.get(field)));
            }
        }
        return rows;
    }
}

package io.imcore.console.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.message.MessageAttachment;
import io.imcore.console.page.ConsoleMessages;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Users and groups. A user is found by id, user name or alias ({@code q}, with {@code by=alias} for an alias) and
 * shown with its account state and devices (auth-service {@code GET /user/info}) and provider tokens (push-service
 * {@code GET /push/user/tokens}); both are admin reads naming the user in the query, so a disabled user's devices
 * stay visible; the user's newest files come from message-service ({@code GET /file/list}, an image's thumbnail through
 * the message trace's thumbnail route). Disable asks for a confirmation first; enable does not. A group's info and
 * members come from
 * message-service's group reads ({@code group_id} a query parameter).
 */
@Path("/users")
@Produces(MediaType.TEXT_HTML)
public class UserPages extends ServicePages {

    /** The user's newest files shown (message-service's page size). */
    private static final int FILES_SHOWN = 20;

    @Inject
    Template users;
    @Inject
    Language language;

    @GET
    public Response lookUp(@Context HttpHeaders headers, @QueryParam("q") String query, @QueryParam("by") String by,
            @QueryParam("user_id") String userId, @QueryParam("confirm") String confirm,
            @QueryParam("group_id") String groupId) {
        ConsoleSession session = guard.requireAdmin(headers);
        String q = Pages.text(query);
        boolean byAlias = "alias".equals(by);
        // a user opened by id (a link, a redirect after a change) shows that id in the search field
        String shown = q.isEmpty() ? Pages.text(userId) : q;
        TemplateInstance page = Pages.page(users, session).data("q", shown).data("byAlias", byAlias)
                .data("groupId", Pages.text(groupId));
        if (byAlias && !q.isEmpty()) {
            showAliasUsers(page, session, q);
        } else if (!q.isEmpty() || shown.matches("\\d+")) {
            showUser(page, session, shown, "disable".equals(confirm));
        } else if (!shown.isEmpty()) {
            page.data("searchError", language.msg().users_id_not_number());
        }
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
                groupId != null && !groupId.isBlank() && group == null ? language.msg().users_group_not_number()
                        : null);
        return Response.ok(page).build();
    }

    /**
     * One user: digits are a user id, anything else a user name (user names cannot be all digits, so this is never
     * ambiguous); auth-service refuses what is neither with its 10002.
     */
    /** The change-log events the user page shows. */
    private static final int RECENT_EVENTS = 20;

    private void showUser(TemplateInstance page, ConsoleSession session, String idOrName, boolean confirmDisable) {
        boolean byId = idOrName.matches("\\d+");
        Answer found = backend.get(Service.AUTH, "/user/info?" + (byId ? "user_id=" : "username=")
                + URLEncoder.encode(idOrName, StandardCharsets.UTF_8), session.credentials());
        if (!found.ok() || found.data() == null) {
            page.data("searchError", found.code() == 10000
                    ? (byId ? language.msg().users_no_user_id(idOrName) : language.msg().users_no_user_named(idOrName))
                    : language.msg().users_not_looked_up(found.error()));
            return;
        }
        long user = found.data().path("user_id").asLong();
        boolean disabled = found.data().path("disabled").asBoolean();
        Answer tokens = backend.get(Service.PUSH, "/push/user/tokens?user_id=" + user, session.credentials());
        Answer events = backend.get(Service.MESSAGE, "/message/recent_events?limit=" + RECENT_EVENTS,
                session.credentialsAsUser(user));
        page.data("user", backend.plain(found.data())).data("userShown", true).data("disabled", disabled)
                .data("confirmDisable", confirmDisable && !disabled)
                .data("devices", withTimes(backend.plainList(found.data().get("devices")), "created_at",
                        "last_seen_at"))
                .data("tokens", withTimes(backend.plainList(tokens.ok() && tokens.data() != null
                        ? tokens.data().get("list") : null), "bound_at"))
                .data("tokensError", tokens.ok() ? null : tokens.error())
                .data("events", RecentEvents.rows(events.ok() && events.data() != null ? events.data().get("events")
                        : null))
                .data("eventsError", events.ok() ? null : events.error());
        Answer files = backend.get(Service.MESSAGE, "/file/list?user_id=" + user + "&limit=" + FILES_SHOWN,
                session.credentials());
        JsonNode listed = files.ok() && files.data() != null ? files.data() : null;
        page.data("files", files(listed == null ? null : listed.get("files"), user))
                .data("filesMore", listed != null && listed.hasNonNull("next_before"))
                .data("filesError", files.ok() ? null : files.error());
    }

    /**
     * The user's files as rows: size and time in words, the state translated, an image's thumbnail path (read as
     * the uploader, who may download it) and the message carrying the file, each key present for the template.
     */
    private List<Map<String, Object>> files(JsonNode listed, long user) {
        ConsoleMessages msg = language.msg();
        List<Map<String, Object>> rows = backend.plainList(listed);
        for (Map<String, Object> row : rows) {
            row.put("size_text", row.get("size") instanceof Number n ? MessageAttachment.size(n.longValue()) : "-");
            row.put("created_at_text", row.get("created_at") instanceof Number n ? Pages.time(n.longValue() * 1000)
                    : "-");
            row.put("state_text", "completed".equals(row.get("state")) ? msg.users_file_completed()
                    : msg.users_file_uploading());
            row.putIfAbsent("type", "-");
            row.putIfAbsent("msg_id", "");
            row.put("thumbnail_path", Boolean.TRUE.equals(row.get("thumbnail"))
                    ? "/console/messages/thumbnail?file_id=" + row.get("file_id") + "&user_id=" + user : "");
        }
        return rows;
    }

    /** The users with a device carrying the alias, each a link to the user. */
    private void showAliasUsers(TemplateInstance page, ConsoleSession session, String alias) {
        Answer found = backend.get(Service.PUSH, "/push/alias/users?alias="
                + URLEncoder.encode(alias, StandardCharsets.UTF_8), session.credentials());
        if (!found.ok() || found.data() == null) {
            page.data("searchError", language.msg().users_alias_not_looked_up(found.error()));
            return;
        }
        List<Long> ids = new ArrayList<>();
        found.data().path("user_ids").forEach(id -> ids.add(id.asLong()));
        page.data("aliasShown", true).data("aliasUsers", ids).data("aliasMore", found.data().path("more").asBoolean());
    }

    /**
     * Disable or enable one user. Disable takes two submits: the first (no {@code confirmed}) only leads to the
     * confirmation on the user's page; enable is done at once, it takes nothing away.
     */
    @POST
    @Path("state")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response switchUser(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("user_id") String userId, @FormParam("action") String action,
            @FormParam("confirmed") String confirmed) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        Long user = id(userId);
        if (user == null || !List.of("disable", "enable").contains(action)) {
            session.setNotice(language.msg().users_nothing_changed());
            return Pages.redirect("/users");
        }
        if (action.equals("disable") && !"yes".equals(confirmed)) {
            return Pages.redirect("/users?user_id=" + user + "&confirm=disable");
        }
        Answer answer = backend.put(Service.AUTH, "/user/" + action, session.credentials(),
                Map.of("list", List.of(user)));
        ConsoleMessages msg = language.msg();
        boolean disable = action.equals("disable");
        session.setNotice(answer.ok() ? (disable ? msg.users_disabled_notice(user) : msg.users_enabled_notice(user))
                : disable ? msg.users_not_disabled(user, answer.error()) : msg.users_not_enabled(user, answer.error()));
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

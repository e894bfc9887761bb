package io.imcore.message.group;

import static io.imcore.common.api.QueryParams.requiredLong;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** Groups (decisions.md section 4); POST and DELETE forms of kick, leave and destroy behave the same. */
@Path("/group")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class GroupResource {

    private final RequestContext caller;
    private final GroupService groups;

    public GroupResource(RequestContext caller, GroupService groups) {
        this.caller = caller;
        this.groups = groups;
    }

    @POST
    @Path("/create")
    public ApiResponse<GroupInfo> create(CreateGroupRequest body) {
        return ApiResponse.ok(groups.create(caller, body));
    }

    @POST
    @Path("/invite")
    public ApiResponse<Boolean> invite(GroupMembersRequest body) {
        return ApiResponse.ok(groups.invite(caller, body));
    }

    @POST
    @Path("/kick")
    public ApiResponse<Boolean> kick(GroupMembersRequest body) {
        return ApiResponse.ok(groups.kick(caller, body));
    }

    @DELETE
    @Path("/kick")
    public ApiResponse<Boolean> kickByDelete(GroupMembersRequest body) {
        return kick(body);
    }

    @POST
    @Path("/leave")
    public ApiResponse<Boolean> leave(@QueryParam("group_id") String groupId) {
        return ApiResponse.ok(groups.leave(caller, groupId(groupId)));
    }

    @DELETE
    @Path("/leave")
    public ApiResponse<Boolean> leaveByDelete(@QueryParam("group_id") String groupId) {
        return leave(groupId);
    }

    @POST
    @Path("/destroy")
    public ApiResponse<Boolean> destroy(@QueryParam("group_id") String groupId) {
        return ApiResponse.ok(groups.destroy(caller, groupId(groupId)));
    }

    @DELETE
    @Path("/destroy")
    public ApiResponse<Boolean> destroyByDelete(@QueryParam("group_id") String groupId) {
        return destroy(groupId);
    }

    @GET
    @Path("/info")
    public ApiResponse<GroupInfo> info(@QueryParam("group_id") String groupId) {
        return ApiResponse.ok(groups.info(caller, groupId(groupId)));
    }

    @GET
    @Path("/member_list")
    public ApiResponse<List<GroupMember>> members(@QueryParam("group_id") String groupId) {
        return ApiResponse.ok(groups.members(caller, groupId(groupId)));
    }

    @GET
    @Path("/user_joined")
    public ApiResponse<List<GroupInfo>> joined() {
        return ApiResponse.ok(groups.joined(caller));
    }

    @POST
    @Path("/admin_add")
    public ApiResponse<Boolean> addAdmins(GroupMembersRequest body) {
        return ApiResponse.ok(groups.addAdmins(caller, body));
    }

    @POST
    @Path("/admin_remove")
    public ApiResponse<Boolean> removeAdmins(GroupMembersRequest body) {
        return ApiResponse.ok(groups.removeAdmins(caller, body));
    }

    @POST
    @Path("/mute")
    public ApiResponse<Boolean> mute(MuteRequest body) {
        return ApiResponse.ok(groups.mute(caller, body));
    }

    @POST
    @Path("/mute_all")
    public ApiResponse<Boolean> muteAll(MuteAllRequest body) {
        return ApiResponse.ok(groups.muteAll(caller, body));
    }

    @POST
    @Path("/announcement")
    public ApiResponse<Boolean> announce(AnnouncementRequest body) {
        return ApiResponse.ok(groups.announce(caller, body));
    }

    private static Long groupId(String value) {
        return requiredLong("group_id", value, 1, Long.MAX_VALUE);
    }
}

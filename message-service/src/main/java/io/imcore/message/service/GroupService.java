package io.imcore.message.service;

import io.imcore.common.api.StorableText;
import io.imcore.common.context.IdentityDirectory;
import io.imcore.common.context.RequestContext;
import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.message.api.Dtos.CreateGroupRequest;
import io.imcore.message.api.Dtos.GroupInfo;
import io.imcore.message.api.Dtos.GroupMember;
import io.imcore.message.api.Dtos.GroupMembersRequest;
import io.imcore.message.config.MessageConfig;
import io.imcore.message.store.ConversationKind;
import io.imcore.message.store.ConversationStore;
import io.imcore.message.store.ConversationStore.Key;
import io.imcore.message.store.GroupRow;
import io.imcore.message.store.GroupStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Groups (decisions.md section 4). Members are the rows of the group's conversation. Who may do what: any member
 * invites; the owner kicks and destroys; an admin token may do everything, and with the group_id header only for
 * that group. A destroyed group is gone: 20001 everywhere, and it accepts no messages.
 */
@ApplicationScoped
public class GroupService {

    private static final int MAX_NAME = 64;
    private static final int MAX_DESCRIPTION = 1024;
    private static final int MAX_AVATAR = 1024;
    private static final int MAX_USER_LIST = 500;

    private final Database database;
    private final IdentityDirectory directory;
    private final ConversationStore conversations;
    private final GroupStore groups;
    private final MessageConfig config;

    public GroupService(Database database, IdentityDirectory directory, ConversationStore conversations,
            GroupStore groups, MessageConfig config) {
        this.database = database;
        this.directory = directory;
        this.conversations = conversations;
        this.groups = groups;
        this.config = config;
    }

    /** The caller (user token, or admin acting as user_id) owns the new group; an admin alone creates it ownerless. */
    public GroupInfo create(RequestContext caller, CreateGroupRequest body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        StorableText.check("name", body.name());
        String name = body.name() == null ? "" : body.name().strip();
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw ApiException.badParameter("name", "1 to " + MAX_NAME + " characters required");
        }
        checkLength("description", body.description(), MAX_DESCRIPTION);
        checkLength("avatar", body.avatar(), MAX_AVATAR);
        Long owner = caller.isAdmin() ? caller.userIdOrNull() : Long.valueOf(caller.token().userId());
        List<Long> invited = users(caller.appId(), body.userList(), "user_list", true);
        LinkedHashSet<Long> members = new LinkedHashSet<>(invited);
        if (owner != null) {
            members.remove(owner);
        }
        if (members.size() + (owner == null ? 0 : 1) > config.groupMaxMembers()) {
            throw ApiException.badParameter("user_list", "a group has at most " + config.groupMaxMembers() + " members");
        }
        long groupId = database.inTransaction(c -> {
            long id = groups.nextGroupId(c);
            long conversationId = conversations.create(c, caller.appId(), Key.group(id));
            groups.insert(c, caller.appId(), id, conversationId, name, body.description(), body.avatar(), owner);
            if (owner != null) {
                conversations.addMembers(c, conversationId, caller.appId(), id, new long[] {owner}, GroupStore.ROLE_OWNER);
            }
            conversations.addMembers(c, conversationId, caller.appId(), id,
                    members.stream().mapToLong(Long::longValue).toArray(), GroupStore.ROLE_MEMBER);
            return id;
        });
        return info(database.read(c -> groups.find(c, caller.appId(), groupId)).orElseThrow());
    }

    /** Adds users directly (no acceptance step); members already in stay as they are. */
    public boolean invite(RequestContext caller, GroupMembersRequest body) {
        long groupId = groupId(body == null ? null : body.groupId());
        List<Long> invited = users(caller.appId(), body.userList(), "user_list", false);
        database.inTransaction(c -> {
            GroupRow group = lockLive(c, caller, groupId);
            requireMember(c, caller, group);
            int added = conversations.addMembers(c, group.conversationId(), caller.appId(), groupId,
                    invited.stream().mapToLong(Long::longValue).toArray(), GroupStore.ROLE_MEMBER);
            if (group.memberCount() + added > config.groupMaxMembers()) {
                // the transaction rolls back: nobody is added
                throw ApiException.badParameter("user_list", "a group has at most " + config.groupMaxMembers()
                        + " members");
            }
            return null;
        });
        return true;
    }

    /** The owner or an admin removes members; ids that are not members are ignored. */
    public boolean kick(RequestContext caller, GroupMembersRequest body) {
        long groupId = groupId(body == null ? null : body.groupId());
        List<Long> kicked = ids(body.userList(), "user_list");
        database.inTransaction(c -> {
            GroupRow group = lockLive(c, caller, groupId);
            requireOwner(caller, group);
            groups.removeMembers(c, group.conversationId(), kicked.stream().mapToLong(Long::longValue).toArray());
            if (group.ownerId() != null && kicked.contains(group.ownerId())) {
                groups.promoteOldestMember(c, group.conversationId());
            }
            return null;
        });
        return true;
    }

    /** The caller leaves; when the owner leaves, the longest-standing member becomes the owner. */
    public boolean leave(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        long user = caller.requireUserId();
        database.inTransaction(c -> {
            GroupRow group = lockLive(c, caller, groupId);
            if (groups.removeMembers(c, group.conversationId(), new long[] {user}) == 0) {
                throw new ApiException(ErrorCode.NOT_GROUP_MEMBER);
            }
            if (group.ownerId() != null && group.ownerId() == user) {
                groups.promoteOldestMember(c, group.conversationId());
            }
            return null;
        });
        return true;
    }

    public boolean destroy(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        database.inTransaction(c -> {
            GroupRow group = lockLive(c, caller, groupId);
            requireOwner(caller, group);
            groups.destroy(c, caller.appId(), groupId, group.conversationId());
            return null;
        });
        return true;
    }

    public GroupInfo info(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        return database.read(c -> {
            GroupRow group = live(c, caller, groupId);
            requireMember(c, caller, group);
            return info(group);
        });
    }

    public List<GroupMember> members(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        return database.read(c -> {
            GroupRow group = live(c, caller, groupId);
            requireMember(c, caller, group);
            return groups.members(c, group.conversationId()).stream()
                    .map(m -> new GroupMember(m.userId(), m.role() == GroupStore.ROLE_OWNER ? "owner" : "member",
                            m.joinedAtMs()))
                    .toList();
        });
    }

    public List<GroupInfo> joined(RequestContext caller) {
        long user = caller.requireUserId();
        return database.read(c -> groups.joined(c, caller.appId(), user)).stream().map(GroupService::info).toList();
    }

    private static GroupInfo info(GroupRow g) {
        return new GroupInfo(g.groupId(), g.name(), g.description(), g.avatar(), g.ownerId(), g.memberCount(),
                g.createdAtMs());
    }

    private GroupRow live(Connection c, RequestContext caller, long groupId) throws SQLException {
        checkActingGroup(caller, groupId);
        return groups.find(c, caller.appId(), groupId).filter(g -> !g.destroyed())
                .orElseThrow(() -> new ApiException(ErrorCode.GROUP_NOT_FOUND));
    }

    private GroupRow lockLive(Connection c, RequestContext caller, long groupId) throws SQLException {
        checkActingGroup(caller, groupId);
        return groups.lock(c, caller.appId(), groupId).filter(g -> !g.destroyed())
                .orElseThrow(() -> new ApiException(ErrorCode.GROUP_NOT_FOUND));
    }

    /** An admin acting for one group (group_id header) manages only that group. */
    private static void checkActingGroup(RequestContext caller, long groupId) {
        Long acting = caller.actingGroupId();
        if (acting != null && acting != groupId) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "group_id header names another group");
        }
    }

    /** Members (and admins) only; an admin acting as a user is checked as that user. */
    private void requireMember(Connection c, RequestContext caller, GroupRow group) throws SQLException {
        Long user = caller.userIdOrNull();
        if (caller.isAdmin() && user == null) {
            return;
        }
        if (conversations.member(c, group.conversationId(), user).isEmpty()) {
            throw new ApiException(ErrorCode.NOT_GROUP_MEMBER);
        }
    }

    private static void requireOwner(RequestContext caller, GroupRow group) {
        Long user = caller.userIdOrNull();
        if (caller.isAdmin() && user == null) {
            return;
        }
        if (group.ownerId() == null || !group.ownerId().equals(user)) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "only the group owner may do this");
        }
    }

    private static long groupId(Long groupId) {
        if (groupId == null) {
            throw ApiException.badParameter("group_id", "required");
        }
        if (groupId <= 0) {
            throw ApiException.badParameter("group_id", "must be a positive integer");
        }
        if (!ConversationKind.isGroupId(groupId)) {
            throw new ApiException(ErrorCode.GROUP_NOT_FOUND);
        }
        return groupId;
    }

    /** Existing users of the app (10000 for any other, nothing changed). */
    private List<Long> users(String appId, List<Long> list, String field, boolean optional) {
        if (optional && (list == null || list.isEmpty())) {
            return List.of();
        }
        List<Long> ids = ids(list, field);
        Map<Long, IdentityDirectory.UserState> known = directory.users(appId, ids);
        List<Long> missing = ids.stream().filter(id -> !known.containsKey(id)).toList();
        if (!missing.isEmpty()) {
            throw new ApiException(ErrorCode.USER_NOT_FOUND, field + ": no such user " + SendService.joinIds(missing));
        }
        return ids;
    }

    private static List<Long> ids(List<Long> list, String field) {
        if (list == null || list.isEmpty()) {
            throw ApiException.badParameter(field, "1 to " + MAX_USER_LIST + " user ids required");
        }
        if (list.size() > MAX_USER_LIST) {
            throw ApiException.badParameter(field, "at most " + MAX_USER_LIST + " user ids");
        }
        for (Long id : list) {
            if (id == null || id <= 0) {
                throw ApiException.badParameter(field, "ids must be positive integers");
            }
        }
        return List.copyOf(new LinkedHashSet<>(list));
    }

    private static void checkLength(String field, String value, int max) {
        StorableText.check(field, value);
        if (value != null && value.length() > max) {
            throw ApiException.badParameter(field, "longer than " + max + " characters");
        }
    }
}

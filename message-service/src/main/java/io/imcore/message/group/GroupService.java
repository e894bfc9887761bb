package io.imcore.message.group;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.api.StorableText;
import io.imcore.common.context.RequestContext;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.conversation.AppUsers;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationStore;
import io.imcore.message.conversation.ConversationStore.Key;
import io.imcore.message.webhook.WebhookEventQueue;
import io.imcore.message.webhook.WebhookEvents;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Groups (decisions.md section 4, docs/api-decisions.md "Group roles, receipts and typing"). Members are the rows of
 * the group's conversation. Who may do what: any member invites; the owner names and removes admins and destroys;
 * the owner and admins kick and mute plain members and set the announcement (the owner also kicks admins); an
 * admin token may do everything, and with the group_id header only for that group. A destroyed group is gone: 20001
 * everywhere, and it accepts no messages. Every change reaches the members' devices through {@link GroupNotices}.
 */
@ApplicationScoped
public class GroupService {

    private static final int MAX_NAME = 64;
    private static final int MAX_DESCRIPTION = 1024;
    private static final int MAX_AVATAR = 1024;
    private static final int MAX_USER_LIST = 500;
    private static final int MAX_ANNOUNCEMENT = 2048;
    /** A mute lasts a year at most. */
    private static final long MAX_MUTE_SECONDS = 365L * 24 * 3600;

    private final AppUsers users;
    private final Database database;
    private final ConversationStore conversations;
    private final GroupStore groups;
    private final MessageConfig config;
    private final WebhookEventQueue webhooks;
    private final GroupNotices notices;

    public GroupService(AppUsers users, Database database, ConversationStore conversations, GroupStore groups,
            MessageConfig config, WebhookEventQueue webhooks, GroupNotices notices) {
        this.webhooks = webhooks;
        this.notices = notices;
        this.users = users;
        this.database = database;
        this.conversations = conversations;
        this.groups = groups;
        this.config = config;
    }

    /**
     * The caller (user token, or admin acting as user_id) owns the new group; an admin alone creates it ownerless.
     * The users are looked up (maybe from auth-service) before the transaction starts.
     */
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
        LinkedHashSet<Long> others = new LinkedHashSet<>(invited);
        if (owner != null) {
            others.remove(owner);
        }
        if (others.size() + (owner == null ? 0 : 1) > config.groupMaxMembers()) {
            throw ApiException.badParameter("user_list", "a group has at most " + config.groupMaxMembers() + " members");
        }
        return QuarkusTransaction.joiningExisting().call(() -> {
            Group group = new Group();
            group.appId = caller.appId();
            group.groupId = groups.nextGroupId();
            group.conversationId = database.inTransaction(c -> conversations.create(c, group.appId,
                    Key.group(group.groupId)));
            group.name = name;
            group.description = body.description();
            group.avatar = body.avatar();
            group.createdBy = owner;
            groups.persistAndFlush(group);
            if (owner != null) {
                addMembers(group, List.of(owner), GroupMembership.ROLE_OWNER);
            }
            addMembers(group, others, GroupMembership.ROLE_MEMBER);
            // the owner and the member count are read from the member rows just written
            groups.refresh(group);
            ObjectNode created = groupEvent(group);
            created.put("name", group.name);
            created.put("owner_id", owner);
            created.set("user_ids", created.arrayNode().addAll(others.stream().map(created::numberNode).toList()));
            webhooks.queue(group.appId, WebhookEvents.GROUP_CREATED, eventKey(group), created);
            notices.tell(group, "created", List.of(), Map.of(), List.of());
            return info(group);
        });
    }

    /** Adds users directly (no acceptance step); members already in stay as they are. */
    public boolean invite(RequestContext caller, GroupMembersRequest body) {
        long groupId = groupId(body == null ? null : body.groupId());
        List<Long> invited = users(caller.appId(), body.userList(), "user_list", false);
        QuarkusTransaction.joiningExisting().run(() -> {
            Group group = lockLive(caller, groupId);
            requireMember(caller, group);
            if (group.memberCount + addMembers(group, invited, GroupMembership.ROLE_MEMBER) > config.groupMaxMembers()) {
                // the transaction rolls back: nobody is added
                throw ApiException.badParameter("user_list", "a group has at most " + config.groupMaxMembers()
                        + " members");
            }
            membersEvent(group, WebhookEvents.GROUP_MEMBERS_ADDED, invited, null);
            notices.tell(group, "members_added", invited, Map.of(), List.of());
        });
        return true;
    }

    /**
     * The owner or an admin (token, or of the group) removes members; ids that are not members are ignored. An admin
     * of the group kicks plain members only.
     */
    @Transactional
    public boolean kick(RequestContext caller, GroupMembersRequest body) {
        long groupId = groupId(body == null ? null : body.groupId());
        List<Long> kicked = ids(body.userList(), "user_list");
        Group group = lockLive(caller, groupId);
        requirePlainMembers(requireManager(caller, group), group, kicked, "kick");
        groups.removeMembers(group.conversationId, kicked);
        if (group.ownerId != null && kicked.contains(group.ownerId)) {
            groups.promoteOldestMember(group.conversationId);
        }
        membersEvent(group, WebhookEvents.GROUP_MEMBERS_REMOVED, kicked, "kicked");
        notices.tell(group, "members_removed", kicked, Map.of("reason", "kicked"), kicked);
        return true;
    }

    /** The caller leaves; when the owner leaves, the longest-standing member becomes the owner. */
    @Transactional
    public boolean leave(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        long user = caller.requireUserId();
        Group group = lockLive(caller, groupId);
        if (groups.removeMembers(group.conversationId, List.of(user)) == 0) {
            throw new ApiException(ErrorCode.NOT_GROUP_MEMBER);
        }
        if (group.ownerId != null && group.ownerId == user) {
            groups.promoteOldestMember(group.conversationId);
        }
        membersEvent(group, WebhookEvents.GROUP_MEMBERS_REMOVED, List.of(user), "left");
        notices.tell(group, "members_removed", List.of(user), Map.of("reason", "left"), List.of(user));
        return true;
    }

    /** A destroyed group keeps its row (its id is never reused) and loses its members. */
    @Transactional
    public boolean destroy(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        Group group = lockLive(caller, groupId);
        requireOwner(caller, group);
        group.destroyedAt = Instant.now();
        List<Long> members = groups.memberIds(group.conversationId);
        groups.removeAllMembers(group.conversationId);
        webhooks.queue(group.appId, WebhookEvents.GROUP_DESTROYED, eventKey(group), groupEvent(group));
        notices.tell(group, "destroyed", List.of(), Map.of(), members);
        return true;
    }

    /** A webhook event of the group: {@code group_id} and what the caller adds. */
    private ObjectNode groupEvent(Group group) {
        ObjectNode data = webhooks.data();
        data.put("group_id", group.groupId);
        return data;
    }

    /** The group's events keep their order with its messages' ({@code message.created} has the same key). */
    private static String eventKey(Group group) {
        return group.appId + ":" + group.conversationId;
    }

    /** {@code reason}: why members were removed (kicked, left); null for additions. */
    private void membersEvent(Group group, String type, List<Long> userIds, String reason) {
        ObjectNode data = groupEvent(group);
        data.set("user_ids", data.arrayNode().addAll(userIds.stream().map(data::numberNode).toList()));
        if (reason != null) {
            data.put("reason", reason);
        }
        webhooks.queue(group.appId, type, eventKey(group), data);
    }

    @Transactional
    public GroupInfo info(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        Group group = live(caller, groupId);
        requireMember(caller, group);
        return info(group);
    }

    @Transactional
    public List<GroupMember> members(RequestContext caller, Long groupIdParam) {
        long groupId = groupId(groupIdParam);
        Group group = live(caller, groupId);
        requireMember(caller, group);
        return groups.members(group.conversationId).stream()
                .map(m -> new GroupMember(m.userId, m.roleName(), m.joinedAt.toEpochMilli(),
                        m.mutedUntil == null || m.mutedUntil.isBefore(Instant.now()) ? null
                                : m.mutedUntil.toEpochMilli()))
                .toList();
    }

    /**
     * A group message's read receipts, for its sender or an admin token: 20002 for a user outside the group, 20004
     * for another member, 10002 when the group has no such message.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public ReceiptPage receipts(RequestContext caller, long groupIdParam, long msgId, long afterUserId, int limit) {
        long groupId = groupId(groupIdParam);
        Group group = live(caller, groupId);
        requireMember(caller, group);
        return database.read(c -> {
            GroupStore.SentMessage message = groups.sentMessage(c, group.conversationId, msgId)
                    .orElseThrow(() -> ApiException.badParameter("msg_id", "no such message in this group"));
            Long user = caller.userIdOrNull();
            if (user != null && user != message.senderId()) {
                throw new ApiException(ErrorCode.RECEIPTS_NOT_SENDER);
            }
            return groups.receipts(c, group.conversationId, message, afterUserId, limit);
        });
    }

    /** The owner names admins among the members (20002 for a user who is not one); the owner stays the owner. */
    @Transactional
    public boolean addAdmins(RequestContext caller, GroupMembersRequest body) {
        return setRole(caller, body, GroupMembership.ROLE_ADMIN, "admins_added");
    }

    /** The owner makes admins plain members again. */
    @Transactional
    public boolean removeAdmins(RequestContext caller, GroupMembersRequest body) {
        return setRole(caller, body, GroupMembership.ROLE_MEMBER, "admins_removed");
    }

    private boolean setRole(RequestContext caller, GroupMembersRequest body, int role, String change) {
        long groupId = groupId(body == null ? null : body.groupId());
        List<Long> named = ids(body.userList(), "user_list");
        Group group = lockLive(caller, groupId);
        requireOwner(caller, group);
        List<GroupMembership> members = requireMembers(group, named);
        if (members.stream().anyMatch(GroupMembership::owner)) {
            throw ApiException.badParameter("user_list", "the owner's role cannot change");
        }
        members.forEach(m -> m.role = (short) role);
        notices.tell(group, change, named, Map.of(), List.of());
        return true;
    }

    /**
     * The owner or an admin mutes plain members for a time (their sends answer 20003 until then); 0 lifts it. The
     * owner and admins cannot be muted (10010).
     */
    @Transactional
    public boolean mute(RequestContext caller, MuteRequest body) {
        long groupId = groupId(body == null ? null : body.groupId());
        List<Long> muted = ids(body.userList(), "user_list");
        Long seconds = body.durationSeconds();
        if (seconds == null || seconds < 0 || seconds > MAX_MUTE_SECONDS) {
            throw ApiException.badParameter("duration_seconds", "0 (lift) to " + MAX_MUTE_SECONDS + " required");
        }
        Group group = lockLive(caller, groupId);
        requireManager(caller, group);
        List<GroupMembership> members = requireMembers(group, muted);
        if (members.stream().anyMatch(m -> m.role != GroupMembership.ROLE_MEMBER)) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "user_list: the owner and admins cannot be muted");
        }
        Instant until = seconds == 0 ? null : Instant.now().plusSeconds(seconds);
        members.forEach(m -> m.mutedUntil = until);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("muted_until", until == null ? null : until.toEpochMilli());
        notices.tell(group, seconds == 0 ? "unmuted" : "muted", muted, fields, List.of());
        return true;
    }

    /** The owner or an admin mutes the whole group (plain members' sends answer 20003) or lifts it. */
    @Transactional
    public boolean muteAll(RequestContext caller, MuteAllRequest body) {
        long groupId = groupId(body == null ? null : body.groupId());
        if (body.muted() == null) {
            throw ApiException.badParameter("muted", "true or false required");
        }
        Group group = lockLive(caller, groupId);
        requireManager(caller, group);
        group.mutedAll = body.muted();
        notices.tell(group, "muted_all", List.of(), Map.of("muted", group.mutedAll), List.of());
        return true;
    }

    /** The owner or an admin sets the announcement read back in the group's info; null or "" removes it. */
    @Transactional
    public boolean announce(RequestContext caller, AnnouncementRequest body) {
        long groupId = groupId(body == null ? null : body.groupId());
        checkLength("announcement", body.announcement(), MAX_ANNOUNCEMENT);
        Group group = lockLive(caller, groupId);
        requireManager(caller, group);
        group.announcement = body.announcement() == null || body.announcement().isEmpty() ? null
                : body.announcement();
        // the text may be long: the devices read it from /group/info
        notices.tell(group, "announcement", List.of(), Map.of(), List.of());
        return true;
    }

    /** One select (owner and member count included): no transaction of its own, like auth-service's device list. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<GroupInfo> joined(RequestContext caller) {
        long user = caller.requireUserId();
        return groups.joined(caller.appId(), user).stream().map(GroupService::info).toList();
    }

    private static GroupInfo info(Group g) {
        return new GroupInfo(g.groupId, g.name, g.description, g.avatar, g.ownerId, g.memberCount,
                g.createdAt.toEpochMilli(), g.announcement, g.mutedAll);
    }

    /**
     * Adds members through the conversation store, which starts them at the conversation's end, in the caller's
     * transaction; returns how many.
     */
    private int addMembers(Group group, Collection<Long> userIds, int role) {
        long[] ids = userIds.stream().mapToLong(Long::longValue).toArray();
        return database.inTransaction(c -> conversations.addMembers(c, group.conversationId, group.appId,
                group.groupId, ids, role));
    }

    private Group live(RequestContext caller, long groupId) {
        checkActingGroup(caller, groupId);
        return groups.find(caller.appId(), groupId).filter(g -> !g.destroyed())
                .orElseThrow(() -> new ApiException(ErrorCode.GROUP_NOT_FOUND));
    }

    private Group lockLive(RequestContext caller, long groupId) {
        checkActingGroup(caller, groupId);
        return groups.lock(caller.appId(), groupId).filter(g -> !g.destroyed())
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
    private void requireMember(RequestContext caller, Group group) {
        Long user = caller.userIdOrNull();
        if (caller.isAdmin() && user == null) {
            return;
        }
        if (!groups.isMember(group.conversationId, user)) {
            throw new ApiException(ErrorCode.NOT_GROUP_MEMBER);
        }
    }

    /** Who manages the group in a call: its owner (or an admin token acting as nobody), or an admin of the group. */
    private enum Manager { OWNER, GROUP_ADMIN }

    /** The owner or an admin of the group, else 10010. */
    private Manager requireManager(RequestContext caller, Group group) {
        Long user = caller.userIdOrNull();
        if (caller.isAdmin() && user == null || group.ownerId != null && group.ownerId.equals(user)) {
            return Manager.OWNER;
        }
        if (groups.membership(group.conversationId, user).filter(m -> m.role == GroupMembership.ROLE_ADMIN)
                .isPresent()) {
            return Manager.GROUP_ADMIN;
        }
        throw new ApiException(ErrorCode.NO_PERMISSION, "only the group owner or an admin may do this");
    }

    /** An admin of the group acts on plain members only. */
    private void requirePlainMembers(Manager manager, Group group, List<Long> userIds, String action) {
        if (manager == Manager.GROUP_ADMIN && groups.memberships(group.conversationId, userIds).stream()
                .anyMatch(m -> m.role != GroupMembership.ROLE_MEMBER)) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "user_list: an admin may not " + action
                    + " the owner or another admin");
        }
    }

    /** The users' memberships; 20002 naming those who are not members. */
    private List<GroupMembership> requireMembers(Group group, List<Long> userIds) {
        List<GroupMembership> members = groups.memberships(group.conversationId, userIds);
        if (members.size() < userIds.size()) {
            List<Long> missing = new ArrayList<>(userIds);
            members.forEach(m -> missing.remove(m.userId));
            throw new ApiException(ErrorCode.NOT_GROUP_MEMBER, "user_list: not members: "
                    + AppUsers.joinIds(missing));
        }
        return members;
    }

    private static void requireOwner(RequestContext caller, Group group) {
        Long user = caller.userIdOrNull();
        if (caller.isAdmin() && user == null) {
            return;
        }
        if (group.ownerId == null || !group.ownerId.equals(user)) {
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
        users.requireExisting(appId, ids, field);
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

package io.imcore.message.conversation;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * The groups as the conversation pages see them: a group's conversation, or none. The group feature's store
 * answers (it is built on conversations, so conversation does not depend on it).
 */
public interface GroupConversations {

    /** The conversation of the app's group, empty when there is no such group or it was destroyed. */
    OptionalLong liveConversation(Connection c, String appId, long groupId) throws SQLException;
}

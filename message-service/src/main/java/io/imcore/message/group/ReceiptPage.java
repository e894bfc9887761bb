package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * A group message's read receipts (GET /message/receipts): the counts over all the members who were in the group
 * when it was sent (the sender excepted), and one page of them by user id, split into read and unread;
 * next_user_id is the after_user_id of the next page, null on the last.
 */
@RegisterForReflection
public record ReceiptPage(long read, long unread, List<Long> readUsers, List<Long> unreadUsers, Long nextUserId) {}

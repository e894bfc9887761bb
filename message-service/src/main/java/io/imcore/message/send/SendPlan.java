package io.imcore.message.send;

import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.send.SendStore.DirectMessage;
import io.imcore.message.send.SendStore.Message;

/**
 * How a checked send is written, chosen once by {@link SendService} before anything is written
 * (docs/message-storage.md):
 * <ul>
 * <li>{@link Repeated}: the transaction_id was used within the window: the first call's answer, nothing written;</li>
 * <li>{@link DirectSend} (a user's message to one user) and {@link GroupSend} (a message to one group): queued for
 * the next group commit ({@link SendCommitter});</li>
 * <li>{@link StoredAlone} (several targets, or a system notification to users): one statement in a transaction of
 * its own, after the transaction_id's claim when there is one.</li>
 * </ul>
 */
public sealed interface SendPlan {

    /** The transaction_id was used within the window: {@code firstAnswer} is what that call answered. */
    record Repeated(String firstAnswer) implements SendPlan {}

    /** A message with one target, queued for the next group commit; {@code transactionId} null when it has none. */
    sealed interface GroupCommitted extends SendPlan permits DirectSend, GroupSend {
        String appId();

        Message message();

        Long transactionId();

        /** The answer recorded with the transaction_id claim. */
        String answer();

        /** Names the conversation: its sends go to one committer thread, so its batches never wait on each other. */
        int conversationHash();
    }

    /** A message from a user to one user. */
    record DirectSend(DirectMessage direct, Long transactionId, String answer) implements GroupCommitted {

        @Override
        public String appId() {
            return direct.appId();
        }

        @Override
        public Message message() {
            return direct.message();
        }

        @Override
        public int conversationHash() {
            return direct.conversationKey().hashCode();
        }
    }

    /**
     * A message to one group, from a member ({@code membersOnly}), or from an admin or the system (not checked).
     * The committer checks the group and the membership in the transaction that stores the message.
     */
    record GroupSend(String appId, long groupId, Message message, boolean membersOnly, Long transactionId,
            String answer) implements GroupCommitted {

        @Override
        public int conversationHash() {
            return 31 * appId.hashCode() + Long.hashCode(groupId);
        }
    }

    /**
     * One message per target conversation ({@code lowIds[i]}, {@code highIds[i]} of {@code kind}), all in one
     * statement; its transaction holds the transaction_id's claim too, and the offline push mark.
     */
    record StoredAlone(String appId, ConversationKind kind, long[] lowIds, long[] highIds, Message message,
            Long transactionId) implements SendPlan {}
}

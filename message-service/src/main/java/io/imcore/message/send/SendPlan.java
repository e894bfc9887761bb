package io.imcore.message.send;

import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.send.SendStore.DirectMessage;
import io.imcore.message.send.SendStore.Message;

/**
 * How a checked send is written, chosen once by {@link SendService} before anything is written
 * (docs/message-storage.md); every plan that writes goes through {@link SendCommitter}:
 * <ul>
 * <li>{@link Repeated}: the transaction_id was used within the window: the first call's answer, nothing written;</li>
 * <li>{@link DirectSend} (a user's message to one user) and {@link GroupSend} (a message to one group): queued for
 * the next group commit;</li>
 * <li>{@link FanOutSend} (several targets, or a system notification to users): stored at once in a transaction of
 * its own.</li>
 * </ul>
 */
public sealed interface SendPlan {

    /** The transaction_id was used within the window: {@code firstAnswer} is what that call answered. */
    record Repeated(String firstAnswer) implements SendPlan {}

    /** A message to write; {@code transactionId} null when it has none. */
    sealed interface Write extends SendPlan permits OneTargetSend, FanOutSend {
        String appId();

        Message message();

        Long transactionId();

        /** The answer recorded with the transaction_id claim. */
        String answer();
    }

    /** A message with one target, queued for the next group commit. */
    sealed interface OneTargetSend extends Write permits DirectSend, GroupSend {

        /** Names the conversation: its sends go to one committer thread, so its batches never wait on each other. */
        int conversationHash();
    }

    /** A message from a user to one user. */
    record DirectSend(DirectMessage direct, Long transactionId, String answer) implements OneTargetSend {

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
            String answer) implements OneTargetSend {

        @Override
        public int conversationHash() {
            return 31 * appId.hashCode() + Long.hashCode(groupId);
        }
    }

    /**
     * One message into each target conversation ({@code lowIds[i]}, {@code highIds[i]} of {@code kind}), all in one
     * statement: several users or groups, or conversation 0 of each user a system notification goes to. To groups,
     * the committer checks them as a {@link GroupSend}'s, each ({@code membersOnly} as there).
     */
    record FanOutSend(String appId, ConversationKind kind, long[] lowIds, long[] highIds, Message message,
            boolean membersOnly, Long transactionId, String answer) implements Write {}
}

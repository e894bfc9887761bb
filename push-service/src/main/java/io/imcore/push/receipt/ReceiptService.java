package io.imcore.push.receipt;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.push.Channel;
import io.imcore.common.push.Receipts;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Parses a provider's receipt callback and counts each delivery once (common {@link Receipts}). */
@ApplicationScoped
public class ReceiptService {

    private final Database database;
    private final ReceiptFormats formats;
    private final String key;

    public ReceiptService(Database database, ReceiptFormats formats,
            @ConfigProperty(name = "im.push.receipt-key") Optional<String> key) {
        this.database = database;
        this.formats = formats;
        this.key = key.orElse("");
    }

    int count(String channelName, String givenKey, String contentType, String body) {
        if (key.isEmpty() || givenKey == null || !MessageDigest.isEqual(key.getBytes(StandardCharsets.UTF_8),
                givenKey.getBytes(StandardCharsets.UTF_8))) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "key missing or wrong");
        }
        Channel channel = Channel.fromWireName(channelName).orElseThrow(() ->
                new ApiException(ErrorCode.BAD_PARAMETER, "channel: unknown channel " + channelName));
        ReceiptFormat format = formats.of(channel).orElseThrow(() ->
                new ApiException(ErrorCode.BAD_PARAMETER, "channel: " + channelName + " has no delivery receipts"));
        List<Receipts.TokenReceipt> receipts;
        try {
            receipts = format.parse(contentType, body == null ? "" : body);
        } catch (IllegalArgumentException e) {
            throw new ApiException(ErrorCode.BAD_PARAMETER, "body: not a " + channelName + " receipt: "
                    + e.getMessage());
        }
        return database.autoCommit(c -> Receipts.countTokens(c, channel, receipts));
    }
}

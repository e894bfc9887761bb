package io.imcore.push.receipt;

import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The providers that call back on delivery, by channel. APNs and FCM offer no delivery callbacks. */
@ApplicationScoped
public class ReceiptFormats {

    private final Map<Channel, ReceiptFormat> byChannel = new EnumMap<>(Channel.class);

    public ReceiptFormats() {
        for (ReceiptFormat format : List.of(new HuaweiReceipts(), new XiaomiReceipts(), new OppoReceipts(),
                new VivoReceipts(), new MeizuReceipts())) {
            byChannel.put(format.channel(), format);
        }
    }

    public Optional<ReceiptFormat> of(Channel channel) {
        return Optional.ofNullable(byChannel.get(channel));
    }
}

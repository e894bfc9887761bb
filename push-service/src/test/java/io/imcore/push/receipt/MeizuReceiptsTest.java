package io.imcore.push.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The body is the one MeizuSimulator posts (Meizu's callback: form field cb = JSON keyed by msgId-type, plus
 * access_token); push-worker's MeizuAdapterTest checks the simulator really posts it.
 */
class MeizuReceiptsTest {

    final MeizuReceipts format = new MeizuReceipts();

    static String form(String cb) {
        return "cb=" + URLEncoder.encode(cb, StandardCharsets.UTF_8) + "&access_token=vendor_e-sim";
    }

    @Test
    void parsesDeliveriesAndLeavesOutClicks() {
        String cb = "{\"c2ee5c3b-1\":{\"param\":\"4343\",\"type\":1,\"targets\":[\"r1\",\"r2\"]},"
                + "\"c2ee5c3b-2\":{\"param\":\"4343\",\"type\":2,\"targets\":[\"r1\"]}}";
        assertEquals(Channel.MEIZU, format.channel());
        assertEquals(List.of(new TokenReceipt(4343, "r1"), new TokenReceipt(4343, "r2")),
                format.parse("application/x-www-form-urlencoded;charset=UTF-8", form(cb)));
        // the cb JSON posted as the body itself
        assertEquals(2, format.parse("application/json", cb).size());
    }

    @Test
    void refusesOtherFormats() {
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/x-www-form-urlencoded", "a=b"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/x-www-form-urlencoded", form("[1]")));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/x-www-form-urlencoded", form("{\"m-1\":{\"param\":\"1\"}}")));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", ""));
    }
}

package io.imcore.push.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bodies as the Xiaomi simulator posts them (XiaomiAdapterTest.receiptCallbackCarriesTheTaskId checks that side). */
class XiaomiReceiptsTest {

    final XiaomiReceipts format = new XiaomiReceipts();

    static String form(String json) {
        return "data=" + URLEncoder.encode(json, StandardCharsets.UTF_8);
    }

    @Test
    void deliveredTargets() {
        String json = "{\"sdm1-1\":{\"param\":\"88\",\"type\":1,\"targets\":\"r1,r2\",\"barStatus\":\"Enable\","
                + "\"timestamp\":1700000000000},\"sdm1-2\":{\"param\":\"89\",\"type\":2,\"targets\":\"r3\"},"
                + "\"sdm1-3\":{\"param\":\"90\",\"type\":1,\"targets\":\"r4\"}}";
        assertEquals(List.of(new TokenReceipt(88, "r1"), new TokenReceipt(88, "r2"), new TokenReceipt(90, "r4")),
                format.parse("application/x-www-form-urlencoded", form(json)));
    }

    @Test
    void notTheFormat() {
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", "{\"statuses\":[]}x"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/x-www-form-urlencoded", "a=b"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/x-www-form-urlencoded",
                form("[1]")));
    }
}

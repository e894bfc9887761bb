package io.imcore.push.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bodies as the OPPO simulator posts them (OppoAdapterTest.receiptCallbackCarriesTheTaskId checks that side). */
class OppoReceiptsTest {

    final OppoReceipts format = new OppoReceipts();

    @Test
    void arrivals() {
        String body = "[{\"messageId\":\"k-1-1-a1\",\"appId\":\"appkey1\",\"taskId\":\"k-1-1-a1\","
                + "\"registrationIds\":\"r1\",\"eventTime\":\"1700000000000\",\"param\":\"99\","
                + "\"eventType\":\"push_arrive\"},{\"messageId\":\"m2\",\"registrationIds\":\"r2, r3\","
                + "\"param\":\"99\",\"eventType\":\"push_arrive\"},{\"messageId\":\"m3\",\"registrationIds\":\"r4\","
                + "\"param\":\"99\",\"eventType\":\"regid_invalid\"},{\"registrationIds\":\"r5\","
                + "\"eventType\":\"push_arrive\"}]";
        assertEquals(List.of(new TokenReceipt(99, "r1"), new TokenReceipt(99, "r2"), new TokenReceipt(99, "r3")),
                format.parse("application/json", body));
    }

    @Test
    void notTheFormat() {
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", "{\"statuses\":[]}"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", "data=%7B%7D"));
    }
}

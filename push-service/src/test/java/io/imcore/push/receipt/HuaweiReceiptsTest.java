package io.imcore.push.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bodies as the Huawei simulator posts them (HuaweiAdapterTest.receiptCallbackCarriesTheTaskId checks that side). */
class HuaweiReceiptsTest {

    final HuaweiReceipts format = new HuaweiReceipts();

    @Test
    void deliveredStatusesOnly() {
        String body = "{\"statuses\":[{\"biTag\":\"77\",\"appid\":\"10086\",\"token\":\"r1\",\"status\":0,"
                + "\"timestamp\":1700000000000,\"requestId\":\"1\"},{\"biTag\":\"77\",\"appid\":\"10086\","
                + "\"token\":\"r2\",\"status\":0,\"timestamp\":1700000000000,\"requestId\":\"1\"},"
                + "{\"biTag\":\"77\",\"token\":\"r3\",\"status\":2},{\"token\":\"r4\",\"status\":0},"
                + "{\"biTag\":\"other\",\"token\":\"r5\",\"status\":0}]}";
        assertEquals(List.of(new TokenReceipt(77, "r1"), new TokenReceipt(77, "r2")), format.parse("application/json", body));
    }

    @Test
    void notTheFormat() {
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", "[1,2]"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("text/plain", "data=x"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", ""));
    }
}

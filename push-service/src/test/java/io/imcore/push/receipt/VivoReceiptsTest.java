package io.imcore.push.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The body is the one VivoSimulator posts (same shape as vivo's callback: keyed by vivo taskId, param = our task id,
 * targets comma-joined); push-worker's VivoAdapterTest checks the simulator really posts it.
 */
class VivoReceiptsTest {

    final VivoReceipts format = new VivoReceipts();

    @Test
    void parsesTheCallbackBody() {
        String body = "{\"600000001\":{\"param\":\"4242\",\"targets\":\"r1,r2\"},"
                + "\"600000002\":{\"param\":\"7\",\"targets\":\"r3\"}}";
        assertEquals(Channel.VIVO, format.channel());
        assertEquals(List.of(new TokenReceipt(4242, "r1"), new TokenReceipt(4242, "r2"), new TokenReceipt(7, "r3")),
                format.parse("application/json", body));
    }

    @Test
    void leavesOutEntriesThatAreNotOurs() {
        assertEquals(List.of(), format.parse("application/json", "{\"1\":{\"param\":\"x\",\"targets\":\"r1\"}}"));
        assertEquals(List.of(), format.parse("application/json", "{}"));
    }

    @Test
    void refusesOtherFormats() {
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", "not json"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", "[1,2]"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", "{\"1\":{\"param\":\"2\"}}"));
        assertThrows(IllegalArgumentException.class, () -> format.parse("application/json", ""));
    }
}

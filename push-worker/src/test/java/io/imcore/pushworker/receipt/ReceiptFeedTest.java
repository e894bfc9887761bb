package io.imcore.pushworker.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushReceipt;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.pushworker.WorkerFixture.Device;
import io.imcore.pushworker.WorkerFixture;
import io.imcore.testing.Eventually;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The push.receipts feed on the SmallRye Kafka connector: a poll whose transaction fails keeps its place (it is
 * neither skipped nor committed past) and is counted once the database accepts it again.
 */
@QuarkusTest
@QuarkusTestResource(ProvidersResource.class)
class ReceiptFeedTest {

    /**
     * With {@link #REFUSE_RECEIPTS}: every receipt write fails, as with a database briefly away. Each refusal draws
     * from the receipt_refusals sequence, which the failed transaction does not roll back: the count of attempts.
     */
    private static final String REFUSAL = """
            create or replace function refuse_receipts() returns trigger language plpgsql as
            $$ begin
                perform nextval('receipt_refusals');
                raise exception 'receipts refused by ReceiptFeedTest';
            end $$""";
    private static final String REFUSE_RECEIPTS = """
            create trigger refuse_receipts before update on push_receipts
                for each statement execute function refuse_receipts()""";

    @Inject
    Database database;

    @Inject
    ObjectMapper mapper;

    private WorkerFixture fixture;

    @BeforeEach
    void app() throws Exception {
        fixture = new WorkerFixture(database, mapper);
    }

    @AfterEach
    void recover() {
        fixture.execute("drop trigger if exists refuse_receipts on push_receipts");
        fixture.execute("drop sequence if exists receipt_refusals");
    }

    @Test
    void aBatchThatCannotBeWrittenIsRetriedInPlaceAndNothingAfterItIsLost() throws Exception {
        long first = fixture.task(1);
        long second = fixture.task(1);
        Device device = fixture.device(Channel.SVCPUSH, null);
        for (long task : new long[] {first, second}) { // both tasks were sent to the device: their ledger rows
            fixture.execute("insert into push_receipts (task_id, device_id, channel, received)"
                    + " values (?, ?, 'svcpush', false)", task, device.deviceId());
        }
        fixture.execute("create sequence receipt_refusals");
        fixture.execute(REFUSAL);
        fixture.execute(REFUSE_RECEIPTS);

        ack(first, device);
        ack(second, device);
        Eventually.until(Duration.ofSeconds(30), "the feed refused twice", () -> fixture.intValue(
                "select case when is_called then last_value else 0 end from receipt_refusals") >= 2);
        assertEquals(0, fixture.count(first, Channel.SVCPUSH, "received"), "nothing counted while refused");
        assertEquals(0, fixture.count(second, Channel.SVCPUSH, "received"), "the later receipt waits its turn");

        recover();
        Eventually.until(Duration.ofSeconds(30), "both receipts counted", () ->
                fixture.count(first, Channel.SVCPUSH, "received") == 1
                        && fixture.count(second, Channel.SVCPUSH, "received") == 1);
        WorkerFixture.awaitConsumed("push.receipts", "push-worker.receipts");
    }

    private void ack(long task, Device device) throws Exception {
        TopicWriter.send("push.receipts", String.valueOf(task), mapper.writeValueAsString(
                PushReceipt.svcpush(task, fixture.appId, device.userId(), device.deviceSn())));
    }
}

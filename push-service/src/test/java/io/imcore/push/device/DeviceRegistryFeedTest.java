package io.imcore.push.device;

import static io.imcore.push.device.DeviceRegistryTest.bind;
import static io.imcore.push.device.DeviceRegistryTest.deviceRow;
import static io.imcore.push.device.DeviceRegistryTest.fails;
import static io.imcore.push.device.DeviceRegistryTest.insertCertificate;
import static io.imcore.push.device.DeviceRegistryTest.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import io.imcore.push.PushApi;
import io.imcore.push.device.DeviceRegistryTest.DeviceRow;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The registry's consumers on the real broker: devices from auth.events, presence from presence.events. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class DeviceRegistryFeedTest {

    @Inject
    Database database;

    PushApi api;
    long alice;
    int nextMarkerDevice = 100;

    @BeforeEach
    void setUp() {
        api = PushApi.newApp(database);
        alice = api.newUser();
    }

    // ---------------------------------------------------------------- auth.events: device.registered

    @Test
    void aRegisteredDeviceBecomesARowAndARedeliveryChangesNothing() throws InterruptedException {
        String key = api.appId + ":" + alice + ":1";
        TopicWriter.send("auth.events", key, deviceRegistered(alice, 1, "pt-a1"));
        DeviceRow row = eventually(() -> deviceRow(database, api.appId, alice, 1), Objects::nonNull);
        assertEquals("pt-a1", row.pushToken());

        TopicWriter.send("auth.events", key, deviceRegistered(alice, 1, "pt-a1"));
        // other types, and on the same partition a marker device: once it is there, the redelivery was applied
        TopicWriter.send("auth.events", key, "{\"v\":1,\"type\":\"user.changed\",\"app_id\":\"" + api.appId
                + "\",\"user_id\":" + alice + ",\"token_version\":2,\"disabled\":false,\"at\":2}");
        TopicWriter.send("auth.events", key, "not json");
        TopicWriter.send("auth.events", key, deviceRegistered(alice, 2, "pt-a2"));
        eventually(() -> deviceRow(database, api.appId, alice, 2), Objects::nonNull);
        assertEquals(row, deviceRow(database, api.appId, alice, 1), "same row, same push_token");
        assertEquals(2L, devicesOfApp());
    }

    @Test
    void theEventFillsTheRowABindCreatedAheadOfIt() throws InterruptedException {
        insertCertificate(database, api.appId, "apns", 1, 1);
        ok(bind(api.as(alice, 3), 3, "apns-early", "apns").post("/user/token/bind"));
        DeviceRow early = deviceRow(database, api.appId, alice, 3);
        assertNull(early.pushToken());

        TopicWriter.send("auth.events", api.appId + ":" + alice + ":3", deviceRegistered(alice, 3, "pt-a3"));
        DeviceRow filled = eventually(() -> deviceRow(database, api.appId, alice, 3), row -> row.pushToken() != null);
        assertEquals(new DeviceRow(early.deviceId(), "pt-a3", null), filled, "the row the bind created");
        long boundTokens = database.read(c -> count(c, "select count(*) from push_device_tokens where device_id = "
                + early.deviceId()));
        assertEquals(1, boundTokens, "the provider token bound before the event stays");
    }

    @Test
    void aRemovedDeviceLeavesTheRegistryWithItsProviderTokens() throws InterruptedException {
        TopicWriter.send("auth.events", api.appId + ":" + alice + ":1", deviceRegistered(alice, 1, "pt-r1"));
        TopicWriter.send("auth.events", api.appId + ":" + alice + ":2", deviceRegistered(alice, 2, "pt-r2"));
        eventually(() -> deviceRow(database, api.appId, alice, 1), Objects::nonNull);
        eventually(() -> deviceRow(database, api.appId, alice, 2), Objects::nonNull);
        api.bindToken("pt-r1", "vendor_a", "hms-r1");
        long removedId = api.deviceId("pt-r1");

        TopicWriter.send("auth.events", api.appId + ":" + alice + ":1", "{\"v\":1,\"type\":\"device.removed\","
                + "\"app_id\":\"" + api.appId + "\",\"user_id\":" + alice + ",\"device_sn\":1,"
                + "\"device_guid\":\"guid-1\",\"at\":2}");

        // the row was there a moment ago: its absence is the event applied
        eventually(() -> deviceRow(database, api.appId, alice, 1) == null ? "gone" : null, Objects::nonNull);
        long tokensLeft = database.read(c -> count(c, "select count(*) from push_device_tokens where device_id = "
                + removedId));
        assertEquals(0, tokensLeft, "its provider tokens went with it");
        assertEquals(1L, devicesOfApp(), "the user's other device stays");
        insertCertificate(database, api.appId, "apns", 1, 1);
        fails(bind(api.as(alice, 1), 1, "apns-late", "apns").post("/user/token/bind"), "device_sn");
        assertNull(deviceRow(database, api.appId, alice, 1), "a token issued before the removal cannot bring it back");
    }

    // ---------------------------------------------------------------- presence.events

    @Test
    void theHighestSeqWinsAndALateOfflineOfAnOlderConnectionIsIgnored() throws InterruptedException {
        presence("device.online", 1, 1_000);
        assertEquals("online 1000", eventually(() -> presenceOf(1), Objects::nonNull));

        // a reconnect, then the close of the first connection arrives late: the device stays online
        presence("device.online", 1, 2_000);
        presence("device.offline", 1, 1_000);
        presence("device.online", 1, 500);
        awaitEarlierRecords(1);
        assertEquals("online 2000", presenceOf(1));

        presence("device.offline", 1, 2_000);
        assertEquals("offline 2000", eventually(() -> presenceOf(1), "offline 2000"::equals));

        // at the same seq an ended connection does not come back; a newer one does
        presence("device.online", 1, 2_000);
        awaitEarlierRecords(1);
        assertEquals("offline 2000", presenceOf(1));
        presence("device.online", 1, 3_000);
        assertEquals("online 3000", eventually(() -> presenceOf(1), "online 3000"::equals));
    }

    @Test
    void anOfflineFirstIsKeptAndDevicesAreSeparate() throws InterruptedException {
        presence("device.offline", 2, 700);
        presence("device.online", 3, 600);
        assertEquals("offline 700", eventually(() -> presenceOf(2), Objects::nonNull));
        assertEquals("online 600", eventually(() -> presenceOf(3), Objects::nonNull));
        presence("device.online", 2, 650);
        awaitEarlierRecords(2);
        assertEquals("offline 700", presenceOf(2));
    }

    @Test
    void onePollsReportsOfADeviceEndAsIfAppliedOneByOne() {
        DevicePresenceStore store = new DevicePresenceStore();
        database.inTransaction(c -> {
            store.apply(c, List.of(change(4, 1_000, true)));
            // a reconnect, the late close of the older connection, an older report; device 5: closed at its seq
            store.apply(c, List.of(change(4, 2_000, true), change(4, 1_000, false), change(4, 500, true),
                    change(5, 800, true), change(5, 800, false), change(5, 800, true)));
            return null;
        });
        assertEquals("online 2000", presenceOf(4));
        assertEquals("offline 800", presenceOf(5));
        database.inTransaction(c -> {
            store.apply(c, List.of(change(4, 1_500, false), change(4, 2_000, false)));
            return null;
        });
        assertEquals("offline 2000", presenceOf(4), "the offline of the newest connection, not an older one's");
    }

    private DevicePresenceStore.Change change(int deviceSn, long seq, boolean online) {
        return new DevicePresenceStore.Change(api.appId, alice, deviceSn, seq, online);
    }

    // ---------------------------------------------------------------- helpers

    private String deviceRegistered(long userId, int deviceSn, String pushToken) {
        return "{\"v\":1,\"type\":\"device.registered\",\"app_id\":\"" + api.appId + "\",\"user_id\":" + userId
                + ",\"device_sn\":" + deviceSn + ",\"device_guid\":\"guid-" + deviceSn + "\",\"push_token\":\""
                + pushToken + "\",\"at\":1}";
    }

    /** A presence record of alice's device, keyed as message-service keys it (so one device stays in order). */
    private void presence(String type, int deviceSn, long seq) {
        presence(type, deviceSn, deviceSn, seq);
    }

    private void presence(String type, int keyDeviceSn, int deviceSn, long seq) {
        TopicWriter.send("presence.events", api.appId + ":" + alice + ":" + keyDeviceSn,
                "{\"v\":1,\"type\":\"" + type + "\",\"app_id\":\"" + api.appId + "\",\"user_id\":" + alice
                        + ",\"device_sn\":" + deviceSn + ",\"replica_id\":\"r1\",\"seq\":" + seq + ",\"at\":1}");
    }

    /**
     * Sends a record for a new marker device on the partition of {@code keyDeviceSn} and waits for it: every record
     * sent before it for that device has been applied then.
     */
    private void awaitEarlierRecords(int keyDeviceSn) throws InterruptedException {
        int marker = nextMarkerDevice++;
        presence("device.online", keyDeviceSn, marker, 1);
        eventually(() -> presenceOf(marker), Objects::nonNull);
    }

    /** "online seq" or "offline seq", or null when the device has no presence row. */
    private String presenceOf(int deviceSn) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select online, seq from push_presence"
                    + " where app_id = ? and user_id = ? and device_sn = ?")) {
                ps.setString(1, api.appId);
                ps.setLong(2, alice);
                ps.setInt(3, deviceSn);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? (rs.getBoolean(1) ? "online " : "offline ") + rs.getLong(2) : null;
                }
            }
        });
    }

    private long devicesOfApp() {
        return database.read(c -> count(c, "select count(*) from push_devices where app_id = '" + api.appId + "'"));
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Polls until the value is done (the consumer may still be joining its group), for at most 30 seconds. */
    private static <T> T eventually(Supplier<T> read, Predicate<T> done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        T value = read.get();
        while ((value == null || !done.test(value)) && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            value = read.get();
        }
        assertTrue(value != null && done.test(value), "not there within 30 s; last seen: " + value);
        return value;
    }
}

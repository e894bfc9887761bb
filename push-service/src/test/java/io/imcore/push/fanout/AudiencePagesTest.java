package io.imcore.push.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.push.AppPerTest;
import io.imcore.push.notify.Audience;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.OsRoute;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The audience pages as the expander reads them: each device's presence and tokens merged from the page's
 * set-based reads, whatever the audience form and wherever the page boundaries fall.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class AudiencePagesTest extends AppPerTest {

    @Test
    void eachDeviceGetsItsOwnPresenceAndTokensAcrossPageBoundaries() {
        long alice = api.newUser();
        long bob = api.newUser();
        long carol = api.newUser();
        long dave = api.newUser();
        String a1 = api.newDevice(alice, 1); // no token, no presence row
        String c1 = api.newDevice(carol, 1);
        api.bindToken(c1, "ios", "apns-c1");
        api.setOnline(carol, 1);
        api.optOut(carol);
        String b1 = api.newDevice(bob, 1);
        api.bindToken(b1, "vendor_a", "hms-b1");
        api.bindToken(b1, "cloud", "fcm-b1");
        api.bindToken(b1, "vendor_b", "mi-b1");
        api.setOnline(bob, 1);
        api.setOffline(bob, 1);
        String b2 = api.newDevice(bob, 2);
        api.bindToken(b2, "cloud", "fcm-b2");
        api.setOnline(bob, 2);
        String d1 = api.newDevice(dave, 1);
        api.bindToken(d1, "ios", "apns-d1");
        api.setOnline(dave, 1);
        api.disable(dave);
        String a2 = api.newDevice(alice, 2);
        api.bindToken(a2, "ios", "apns-a2");
        api.setOnline(alice, 2);

        // pages of 2: [a1, b1] and [b2, a2], both users split by the boundary; the opted-out c1 and the disabled
        // d1 lie within the pages' device_id ranges, their tokens on no row
        assertEquals(List.of(
                List.of(row(a1, alice, 1, false),
                        row(b1, bob, 1, false, route("vendor_a", "hms-b1"), route("cloud", "fcm-b1"),
                                route("vendor_b", "mi-b1"))),
                List.of(row(b2, bob, 2, true, route("cloud", "fcm-b2")),
                        row(a2, alice, 2, true, route("ios", "apns-a2")))),
                pages(Audience.all(), 2));
    }

    @Test
    void aSparsePageGetsTheTokensOfItsOwnDevicesOnly() {
        long alice = api.newUser();
        long other = api.newUser();
        String a1 = api.newDevice(alice, 1);
        api.bindToken(a1, "ios", "apns-a1");
        for (int sn = 1; sn <= 10; sn++) {
            String between = api.newDevice(other, sn);
            api.bindToken(between, "cloud", "fcm-other-" + sn);
            api.setOnline(other, sn);
        }
        String a2 = api.newDevice(alice, 2);
        api.bindToken(a2, "vendor_c", "oppo-a2");
        api.bindToken(a2, "cloud", "fcm-a2");
        api.setOnline(alice, 2);
        assertTrue(api.deviceId(a2) - api.deviceId(a1) >= 2 * AudiencePages.RANGE_SPAN_PER_DEVICE,
                "the page of alice's two devices is sparse: its tokens are read by device, not by range");

        assertEquals(List.of(List.of(row(a1, alice, 1, false, route("ios", "apns-a1")),
                        row(a2, alice, 2, true, route("vendor_c", "oppo-a2"), route("cloud", "fcm-a2")))),
                pages(new Audience(Audience.Form.USER_ID, List.of(), List.of(alice)), 10));
    }

    @Test
    void everyAudienceFormGetsTheSameMergedRowsForItsDevices() {
        long alice = api.newUser();
        long bob = api.newUser();
        long carol = api.newUser();
        String a1 = api.newDevice(alice, 1);
        api.bindToken(a1, "ios", "apns-a1");
        api.setOnline(alice, 1);
        String a2 = api.newDevice(alice, 2);
        String b1 = api.newDevice(bob, 1);
        api.bindToken(b1, "cloud", "fcm-b1");
        api.bindToken(b1, "vendor_d", "vivo-b1");
        api.setOffline(bob, 1);
        String c1 = api.newDevice(carol, 1);
        api.bindToken(c1, "cloud", "fcm-c1");
        api.optOut(carol);
        api.tag(alice, "vip");
        api.tag(carol, "vip");
        api.tag(bob, "new");
        api.alias(b1, "bobby");
        api.alias(a2, "bobby");
        DeviceRow rowA1 = row(a1, alice, 1, true, route("ios", "apns-a1"));
        DeviceRow rowA2 = row(a2, alice, 2, false);
        DeviceRow rowB1 = row(b1, bob, 1, false, route("cloud", "fcm-b1"), route("vendor_d", "vivo-b1"));

        assertEquals(List.of(rowA1, rowA2, rowB1), all(Audience.all(), 2));
        assertEquals(List.of(rowA1, rowA2),
                all(new Audience(Audience.Form.USER_ID, List.of(), List.of(alice, carol)), 1));
        assertEquals(List.of(rowA2, rowB1),
                all(new Audience(Audience.Form.PUSH_TOKEN, List.of(b1, c1, a2), List.of()), 5));
        assertEquals(List.of(rowA2, rowB1), all(new Audience(Audience.Form.ALIAS, List.of("bobby"), List.of()), 1));
        assertEquals(List.of(rowA1, rowA2), all(new Audience(Audience.Form.TAG, List.of("vip"), List.of()), 5));
        assertEquals(List.of(rowA1, rowA2, rowB1),
                all(new Audience(Audience.Form.TAG, List.of("vip", "new"), List.of()), 2));
    }

    /** Every page of the audience, as the expander walks them: from cursor 0 until a page comes back empty. */
    private List<List<DeviceRow>> pages(Audience audience, int limit) {
        List<List<DeviceRow>> pages = new ArrayList<>();
        long cursor = 0;
        while (true) {
            long after = cursor;
            List<DeviceRow> page = database.read(c -> AudiencePages.next(c, api.appId, audience, after, limit));
            if (page.isEmpty()) {
                return pages;
            }
            assertTrue(page.size() <= limit);
            pages.add(page);
            cursor = page.get(page.size() - 1).deviceId();
        }
    }

    private List<DeviceRow> all(Audience audience, int limit) {
        return pages(audience, limit).stream().flatMap(List::stream).toList();
    }

    private DeviceRow row(String pushToken, long userId, int deviceSn, boolean online, OsRoute... routes) {
        Map<Channel, OsRoute> byChannel = new EnumMap<>(Channel.class);
        for (OsRoute route : routes) {
            byChannel.put(Channel.fromWireName(route.channel()).orElseThrow(), route);
        }
        return new DeviceRow(api.deviceId(pushToken), userId, deviceSn, online, byChannel);
    }

    private static OsRoute route(String channel, String token) {
        return new OsRoute(channel, token, channel + "-prod", 1);
    }
}

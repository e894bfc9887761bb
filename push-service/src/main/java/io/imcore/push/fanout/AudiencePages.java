package io.imcore.push.fanout;

import io.imcore.common.store.Database;
import io.imcore.push.notify.Audience;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.OsRoute;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Streams a task's audience in device_id order, one page per call, so that no audience (not even {@code all} over
 * millions of devices) is ever held in memory. Users who opted out, and users auth-service disabled, are not part
 * of any audience.
 *
 * <p>A page takes three set-based reads, merged here: the page's devices, the online devices of the page's users
 * (one presence probe per user, not per device), and the page's provider tokens in device_id order (one range scan
 * of push_device_tokens' primary key when the page is dense in device_id, else a probe per device). The former
 * single statement, with a presence and a token probe per device, read 4.4 times the buffers and took twice as long
 * per page (docs/benchmarks.md "Audience page", deploy/bench/audience-page.sh).
 */
final class AudiencePages {

    /** The page's devices in the (app_id, device_id) index order. */
    private static final String DEVICES = "select d.device_id, d.user_id, d.device_sn from push_devices d"
            + " where %s and d.device_id > ? order by d.app_id, d.device_id limit ?";

    /**
     * The online devices of the given users. {@code offset 0} keeps one index probe per user: given the array's
     * real length (a custom plan), the planner otherwise scans and hashes the whole of push_presence every page.
     */
    private static final String ONLINE = "select u.user_id, p.device_sn from unnest(?::bigint[]) u(user_id)"
            + " cross join lateral (select p.device_sn from push_presence p"
            + "   where p.app_id = ? and p.user_id = u.user_id and p.online offset 0) p";

    /** The tokens of a dense page: one range of the primary key (device_id, channel), read in its order. */
    private static final String TOKENS_IN_RANGE = "select device_id, channel, token, notifier_name, environment"
            + " from push_device_tokens where device_id between ? and ? and app_id = ? order by device_id";

    /** The tokens of a sparse page (a filtered audience, apps' devices interleaved): its own devices only. */
    private static final String TOKENS_OF_DEVICES = "select device_id, channel, token, notifier_name, environment"
            + " from push_device_tokens where device_id = any(?) order by device_id";

    /**
     * A page reads its tokens by range while its device_id span is at most this many ids per device: a range reads
     * every token of the span, some of other apps or left-out users, but costs ~0.03 buffers per token against ~3
     * per probed device.
     */
    static final int RANGE_SPAN_PER_DEVICE = 4;

    private record PageDevice(long deviceId, long userId, int deviceSn) {}

    private record UserDevice(long userId, int deviceSn) {}

    private AudiencePages() {}

    /** The next page of at most {@code limit} devices after {@code cursor}. */
    static List<DeviceRow> next(Connection c, String appId, Audience audience, long cursor, int limit)
            throws SQLException {
        List<PageDevice> devices = devices(c, appId, audience, cursor, limit);
        if (devices.isEmpty()) {
            return List.of();
        }
        Set<UserDevice> online = online(c, appId, devices);
        List<DeviceRow> rows = new ArrayList<>(devices.size());
        for (PageDevice d : devices) {
            rows.add(new DeviceRow(d.deviceId(), d.userId(), d.deviceSn(),
                    online.contains(new UserDevice(d.userId(), d.deviceSn())), new EnumMap<>(Channel.class)));
        }
        addTokens(c, appId, rows);
        return rows;
    }

    private static List<PageDevice> devices(Connection c, String appId, Audience audience, long cursor, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                DEVICES.formatted(AudienceDevices.condition(audience.form())))) {
            int i = AudienceDevices.bind(c, ps, 1, appId, audience);
            ps.setLong(i++, cursor);
            ps.setInt(i, limit);
            List<PageDevice> devices = new ArrayList<>(limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    devices.add(new PageDevice(rs.getLong(1), rs.getLong(2), rs.getInt(3)));
                }
            }
            return devices;
        }
    }

    private static Set<UserDevice> online(Connection c, String appId, List<PageDevice> devices) throws SQLException {
        // sorted, so that consecutive probes walk the index forwards
        long[] users = devices.stream().mapToLong(PageDevice::userId).sorted().distinct().toArray();
        try (PreparedStatement ps = c.prepareStatement(ONLINE)) {
            ps.setArray(1, Database.bigints(c, users));
            ps.setString(2, appId);
            Set<UserDevice> online = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    online.add(new UserDevice(rs.getLong(1), rs.getInt(2)));
                }
            }
            return online;
        }
    }

    /** Merges the page's tokens into its rows: both are in device_id order; tokens of other devices are skipped. */
    private static void addTokens(Connection c, String appId, List<DeviceRow> rows) throws SQLException {
        long first = rows.get(0).deviceId();
        long last = rows.get(rows.size() - 1).deviceId();
        boolean dense = last - first < (long) RANGE_SPAN_PER_DEVICE * rows.size();
        try (PreparedStatement ps = c.prepareStatement(dense ? TOKENS_IN_RANGE : TOKENS_OF_DEVICES)) {
            if (dense) {
                ps.setLong(1, first);
                ps.setLong(2, last);
                ps.setString(3, appId);
            } else {
                ps.setArray(1, Database.bigints(c, rows.stream().mapToLong(DeviceRow::deviceId).toArray()));
            }
            try (ResultSet rs = ps.executeQuery()) {
                int next = 0;
                while (rs.next()) {
                    long deviceId = rs.getLong(1);
                    while (next < rows.size() && rows.get(next).deviceId() < deviceId) {
                        next++;
                    }
                    if (next == rows.size()) {
                        return;
                    }
                    if (rows.get(next).deviceId() != deviceId) {
                        continue; // a device of the range that is not in the page
                    }
                    String channel = rs.getString(2);
                    Optional<Channel> known = Channel.fromWireName(channel);
                    if (known.isPresent()) {
                        rows.get(next).osRoutes().put(known.get(),
                                new OsRoute(channel, rs.getString(3), rs.getString(4), rs.getInt(5)));
                    }
                }
            }
        }
    }
}

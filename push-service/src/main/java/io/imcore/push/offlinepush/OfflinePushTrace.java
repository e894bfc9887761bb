package io.imcore.push.offlinepush;

import io.imcore.common.store.ChunkedDelete;
import io.imcore.common.store.Database;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/** Reads of the offline push trace and daily counts, and the trace's 7-day retention. */
@ApplicationScoped
public class OfflinePushTrace {

    /** One recipient device; times in epoch milliseconds, null until they happen. */
    @RegisterForReflection
    public record DeviceTrace(long userId, int deviceSn, String conversation, String decision, String channel,
            String state, String reason, long decidedAt, Long sentAt, Long receivedAt) {}

    @RegisterForReflection
    public record MessageTrace(long msgId, List<DeviceTrace> devices) {}

    @RegisterForReflection
    public record DailyRow(String day, String channel, long sent, long failed, long rejected, long received) {}

    private final Database database;

    public OfflinePushTrace(Database database) {
        this.database = database;
    }

    public MessageTrace of(String appId, long msgId) {
        return new MessageTrace(msgId, database.read(c -> {
            List<DeviceTrace> devices = new ArrayList<>();
            // the recipients without a device are one row of their own per message (device_sn 0 here)
            try (PreparedStatement ps = c.prepareStatement("select user_id, device_sn, conversation, decision, channel,"
                    + " state, reason, created_at, sent_at, received_at from offline_push_trace"
                    + " where app_id = ? and msg_id = ?"
                    + " union all select u, 0, conversation, '" + OfflinePushPlanner.NO_DEVICE + "', null, 'decided',"
                    + " null, created_at, null, null"
                    + " from offline_push_no_device n cross join unnest(n.user_ids) u where app_id = ? and msg_id = ?"
                    + " order by 1, 2")) {
                ps.setString(1, appId);
                ps.setLong(2, msgId);
                ps.setString(3, appId);
                ps.setLong(4, msgId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        devices.add(new DeviceTrace(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getString(6), rs.getString(7), rs.getTimestamp(8).getTime(),
                                millis(rs.getTimestamp(9)), millis(rs.getTimestamp(10))));
                    }
                }
            }
            return devices;
        }));
    }

    public List<DailyRow> daily(String appId, int days) {
        return database.read(c -> {
            List<DailyRow> rows = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("select day::text, channel, sum(sent), sum(failed),"
                    + " sum(rejected), sum(received) from offline_push_daily"
                    + " where app_id = ? and day > (now() at time zone 'UTC')::date - ?"
                    + " group by day, channel order by day, channel")) {
                ps.setString(1, appId);
                ps.setInt(2, days);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new DailyRow(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                                rs.getLong(5), rs.getLong(6)));
                    }
                }
            }
            return rows;
        });
    }

    /** Trace rows older than 7 days go, in chunks (the daily counts stay). */
    @Scheduled(every = "1h", delayed = "2m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purge() {
        for (String table : List.of("offline_push_trace", "offline_push_no_device")) {
            database.autoCommit(c -> ChunkedDelete.delete(c, table, "created_at < now() - interval '7 days'",
                    0, (ps, first) -> { }, ChunkedDelete.CHUNK));
        }
    }

    private static Long millis(Timestamp at) {
        return at == null ? null : at.getTime();
    }
}

package io.imcore.push.fanout;

import io.imcore.common.store.Database;
import io.imcore.push.notify.Strategy;
import io.imcore.push.notify.Targeting;
import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * POST /push/audience/count: how many devices an audience holds now and where the expansion would route them, per
 * channel, without storing a task. One grouped statement over the audience's devices ({@link AudienceDevices}, the
 * expansion's own condition), their presence and their tokens: PostgreSQL counts, nothing of the audience comes to
 * Java, so {@code all} over a million devices costs one scan, not an expansion.
 */
@ApplicationScoped
public class AudienceCounts {

    /**
     * {@link DeviceRouting#route} in SQL, one row per device: svcpush when the strategy allows it and the device is
     * online; else, when the strategy allows an OS channel, the first of [ios, sequence...] the device holds a token
     * for.
     */
    private static final String COUNT = """
            select channel, count(*) from (
              select case when ? and bool_or(p.online) then 'svcpush'
                          when ? then (?::text[])[min(array_position(?::text[], t.channel))] end as channel
              from push_devices d
              left join push_presence p on p.app_id = d.app_id and p.user_id = d.user_id
                and p.device_sn = d.device_sn and p.online
              left join push_device_tokens t on t.device_id = d.device_id
              where %s
              group by d.device_id) routed
            group by channel""";

    /**
     * The audience's devices (opted-out and disabled users left out) and, per channel in {@link Channel} order,
     * the targets it would route there; the rest of the devices are unreachable.
     */
    public record Count(long devices, long targets, Map<String, Long> channels) {}

    private final Database database;

    public AudienceCounts(Database database) {
        this.database = database;
    }

    public Count count(String appId, Targeting targeting) {
        return database.read(c -> count(c, appId, targeting));
    }

    private static Count count(Connection c, String appId, Targeting targeting) throws SQLException {
        List<String> osOrder = new ArrayList<>(List.of(Channel.APNS.wireName()));
        targeting.osSequence().forEach(channel -> osOrder.add(channel.wireName()));
        var osChannels = c.createArrayOf("text", osOrder.toArray());
        Map<String, Long> channels = new LinkedHashMap<>();
        for (Channel channel : Channel.values()) {
            channels.put(channel.wireName(), 0L);
        }
        long devices = 0;
        try (PreparedStatement ps = c.prepareStatement(
                COUNT.formatted(AudienceDevices.condition(targeting.audience().form())))) {
            ps.setBoolean(1, targeting.strategy() != Strategy.OSPUSH_ONLY);
            ps.setBoolean(2, targeting.strategy() != Strategy.SVCPUSH_ONLY);
            ps.setArray(3, osChannels);
            ps.setArray(4, osChannels);
            AudienceDevices.bind(c, ps, 5, appId, targeting.audience());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String channel = rs.getString(1);
                    long count = rs.getLong(2);
                    devices += count;
                    if (channel != null) { // null: unreachable under the strategy
                        channels.put(channel, count);
                    }
                }
            }
        }
        return new Count(devices, channels.values().stream().mapToLong(Long::longValue).sum(), channels);
    }
}

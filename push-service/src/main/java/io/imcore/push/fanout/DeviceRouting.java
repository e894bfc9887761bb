package io.imcore.push.fanout;

import io.imcore.push.notify.Strategy;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.OsRoute;
import io.imcore.pushcontract.PushBatch.Target;
import java.util.List;

/** Routing of one device (docs/push-fanout.md "Routing"). */
final class DeviceRouting {

    /** Where a device goes: the channel and the target entry of its record. */
    record Routed(Channel channel, Target target) {}

    private DeviceRouting() {}

    /** The device's route, or null when it cannot be reached under the strategy. */
    static Routed route(DeviceRow device, Strategy strategy, List<Channel> osSequence) {
        OsRoute os = osRoute(device, osSequence);
        return switch (strategy) {
            case COMBINED -> device.online() ? svcpush(device, os) : os == null ? null : os(device, os);
            case SVCPUSH_ONLY -> device.online() ? svcpush(device, null) : null;
            case OSPUSH_ONLY -> os == null ? null : os(device, os);
        };
    }

    /** An iOS device uses APNs; any other the first channel of the sequence it holds a token for. */
    static OsRoute osRoute(DeviceRow device, List<Channel> osSequence) {
        OsRoute ios = device.osRoutes().get(Channel.APNS);
        if (ios != null) {
            return ios;
        }
        for (Channel channel : osSequence) {
            OsRoute route = device.osRoutes().get(channel);
            if (route != null) {
                return route;
            }
        }
        return null;
    }

    private static Routed svcpush(DeviceRow device, OsRoute fallback) {
        return new Routed(Channel.SVCPUSH,
                new Target(device.deviceId(), device.userId(), device.deviceSn(), null, null, null, fallback));
    }

    private static Routed os(DeviceRow device, OsRoute route) {
        Channel channel = Channel.fromWireName(route.channel()).orElseThrow();
        return new Routed(channel, new Target(device.deviceId(), device.userId(), device.deviceSn(), route.token(),
                route.notifierName(), route.environment(), null));
    }
}

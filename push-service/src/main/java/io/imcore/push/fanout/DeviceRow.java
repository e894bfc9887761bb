package io.imcore.push.fanout;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.OsRoute;
import java.util.Map;

/** A device of a task's audience with what routing needs: its presence and its bound provider tokens. */
public record DeviceRow(long deviceId, long userId, int deviceSn, boolean online, Map<Channel, OsRoute> osRoutes) {}

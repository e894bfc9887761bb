package io.imcore.push.fanout;

import io.imcore.common.push.Channel;
import io.imcore.common.push.PushBatch.OsRoute;
import java.util.Map;

/** A device of a task's audience with what routing needs: its presence and its bound provider tokens. */
public record DeviceRow(long deviceId, long userId, int deviceSn, boolean online, Map<Channel, OsRoute> osRoutes) {}

package io.imcore.push.notify;

import io.imcore.pushcontract.Channel;
import java.util.List;

/**
 * Who a push reaches and over which channels: the audience and the routing settings of a {@code POST /push/notify}
 * body, validated. The audience count reads only this part of the body.
 *
 * @param osSequence setting.ospush_sequence with {@code ups} expanded, duplicates dropped, order kept; never empty
 */
public record Targeting(Audience audience, Strategy strategy, List<Channel> osSequence) {}

package io.imcore.message.grouplimits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Defaults of the per-app group limits and the timing of read and typing frames ({@code im.message.groups.*}). */
@ConfigMapping(prefix = "im.message.groups")
public interface GroupLimitsConfig {

    /** The sender's devices get read frames in groups of at most this many members (per app: /app/group_limits). */
    @WithDefault("200")
    int receiptFramesMaxMembers();

    /** The readers of one conversation within this window reach each sender as one read frame. */
    @WithDefault("1S")
    Duration readFrameWindow();

    /** Typing frames are relayed in groups of at most this many members (per app: /app/group_limits). */
    @WithDefault("100")
    int typingMaxMembers();

    /** One typing frame per device per interval is relayed; the others are answered 10015. */
    @WithDefault("3S")
    Duration typingInterval();

    /** An app's limits are reused from memory this long: a change reaches the other replicas within it. */
    @WithDefault("5S")
    Duration limitsCacheTtl();
}

package io.imcore.push.notify;

import java.util.Locale;
import java.util.Optional;

/** setting.distribution_strategy (decisions.md section 5). */
public enum Strategy {
    /** Our own channel when the device is online on it, else its OS channel. */
    COMBINED,
    /** Our own channel only: devices that are not online are not reachable. */
    SVCPUSH_ONLY,
    /** The OS channel only. */
    OSPUSH_ONLY;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Strategy> fromWireName(String name) {
        for (Strategy strategy : values()) {
            if (strategy.wireName().equals(name)) {
                return Optional.of(strategy);
            }
        }
        return Optional.empty();
    }
}

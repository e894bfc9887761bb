package io.imcore.common.security;

import io.smallrye.jwt.util.KeyUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.Function;

/**
 * A key file that may be replaced while the service runs (a Kubernetes Secret volume is updated in place): read
 * once at start, then re-read on each check, which hands on the new content only when it differs. Locations are
 * what smallrye-jwt accepts: a path, {@code file:} or {@code classpath:}.
 */
public final class KeyFile {

    private final String location;
    private String content;

    /** Reads the file now: a key file that cannot be read stops the service at start. */
    public KeyFile(String location) {
        this.location = location;
        try {
            this.content = read();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the key file " + location, e);
        }
    }

    public String location() {
        return location;
    }

    public synchronized String content() {
        return content;
    }

    /**
     * If the file changed since the content last taken, hands the new content to {@code take}. Only content taken
     * without an exception counts as read: refused content is offered again at the next check (and refused again,
     * or taken once, say, the key set it needed has arrived).
     */
    public synchronized <T> Optional<T> ifChanged(Function<String, T> take) throws IOException {
        String now = read();
        if (now.equals(content)) {
            return Optional.empty();
        }
        T taken = take.apply(now);
        content = now;
        return Optional.of(taken);
    }

    private String read() throws IOException {
        return KeyUtils.readKeyContent(location);
    }
}

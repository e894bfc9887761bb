package io.imcore.common.security;

import io.smallrye.jwt.util.KeyUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * A key file that may be replaced while the service runs (a Kubernetes Secret volume is updated in place): read
 * once at start, then re-read on each check, which reports the new content only when it differs. Locations are
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

    /** The new content if the file changed since the last read; the caller decides whether to take it. */
    public synchronized Optional<String> changed() throws IOException {
        String now = read();
        if (now.equals(content)) {
            return Optional.empty();
        }
        content = now;
        return Optional.of(now);
    }

    private String read() throws IOException {
        return KeyUtils.readKeyContent(location);
    }
}

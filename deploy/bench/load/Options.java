// The run's settings: the phase, its key=value options (else the environment variable in capitals), the local
// stack's directories.

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

final class Options {

    private static final Map<String, String> GIVEN = new HashMap<>();

    /** The phase being run; it names the phase's CPU lines. */
    static String phase;

    private Options() {}

    /** PHASE [key=value ...] */
    static void parse(String[] args) {
        phase = args[0];
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("option must be key=value: " + args[i]);
            }
            GIVEN.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
    }

    static String get(String key, String fallback) {
        String value = GIVEN.get(key);
        if (value == null) {
            value = System.getenv(key.toUpperCase(Locale.ROOT));
        }
        return value == null || value.isEmpty() ? fallback : value;
    }

    static int getInt(String key, int fallback) {
        return Integer.parseInt(get(key, String.valueOf(fallback)));
    }

    static double getDouble(String key, double fallback) {
        return Double.parseDouble(get(key, String.valueOf(fallback)));
    }

    /** An environment variable that must be set (BASE_URL, APP_ID, ADMIN_TOKEN: .local/env has them). */
    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException(name + " is not set (source .local/env)");
        }
        return value;
    }

    /** The local stack's state directory: LOCAL_DIR as deploy/local/lib.sh reads it, else .local. */
    static Path localDir() {
        return Path.of(get("local_dir", ".local"));
    }

    /** Where the local stack keeps its processes' pid files (option pids). */
    static Path pidsDir() {
        return Path.of(get("pids", localDir().resolve("pids").toString()));
    }
}

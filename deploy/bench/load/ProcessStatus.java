// A process's memory and threads, from /proc/PID/status.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

final class ProcessStatus {

    private ProcessStatus() {}

    /** The pid in a pid file. */
    static long pid(Path pidFile) throws IOException {
        return Long.parseLong(Files.readString(pidFile).trim());
    }

    static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for pid " + pid);
    }

    static int threads(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}

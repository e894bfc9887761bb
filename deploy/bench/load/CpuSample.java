// Where the CPU goes during a measured window: CPU time of the stack's processes (.local/pids/*.pid, each with its
// descendants: nginx workers, PostgreSQL backends), of this load generator and of the whole machine (/proc/stat),
// between two samples. A second replica (pids/push-worker-2.pid, message-service-2.pid) counts under its service;
// byFile keeps each pid file's own ticks.

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

final class CpuSample {
    static final String[] ORDER = {"message-service", "auth-service", "postgres", "gateway", "kafka",
            "push-service", "push-worker", "object-store"};
    final Map<String, Long> ticks = new LinkedHashMap<>();
    /** Each pid file's ticks, by its name (message-service, message-service-2, ...). */
    final Map<String, Long> byFile = new LinkedHashMap<>();
    long machineBusy;
    long machineIrq;
    long machineTotal;
    long nanos = System.nanoTime();

    static CpuSample take() {
        CpuSample sample = new CpuSample();
        try {
            Map<Long, List<Long>> children = new HashMap<>();
            Map<Long, Long> own = new HashMap<>();
            try (var dirs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path dir : dirs) {
                    long[] st = stat(dir.resolve("stat"));
                    if (st != null) {
                        long pid = Long.parseLong(dir.getFileName().toString());
                        own.put(pid, st[1]);
                        children.computeIfAbsent(st[0], k -> new ArrayList<>()).add(pid);
                    }
                }
            }
            Path pids = Options.pidsDir();
            if (Files.isDirectory(pids)) {
                try (var files = Files.newDirectoryStream(pids, "*.pid")) {
                    for (Path f : files) {
                        String file = f.getFileName().toString().replaceAll("\\.pid$", "");
                        String name = service(file);
                        long pid = ProcessStatus.pid(f);
                        long used = tree(pid, own, children);
                        sample.byFile.put(file, used);
                        sample.ticks.merge(name, used, Long::sum);
                    }
                }
            }
            sample.ticks.put("load generator", own.getOrDefault(ProcessHandle.current().pid(), 0L));
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < cpu.length && i <= 8; i++) {
                total += Long.parseLong(cpu[i]);
            }
            sample.machineTotal = total;
            sample.machineBusy = total - Long.parseLong(cpu[4]) - Long.parseLong(cpu[5]);
            sample.machineIrq = Long.parseLong(cpu[6]) + Long.parseLong(cpu[7]);
        } catch (Exception e) {
            sample.ticks.clear();
        }
        return sample;
    }

    /** The column of a pid file: its service for a second replica (NAME-2), postgres for embedded-pg. */
    static String service(String file) {
        if (file.equals("embedded-pg")) {
            return "postgres";
        }
        String base = file.replaceFirst("-[0-9]+$", "");
        return List.of(ORDER).contains(base) ? base : file;
    }

    /** Cores used by the processes of one pid file (its name without .pid) between a and b. */
    static double fileCores(String file, CpuSample a, CpuSample b) {
        double seconds = (b.nanos - a.nanos) / 1e9;
        long ticks = b.byFile.getOrDefault(file, 0L) - a.byFile.getOrDefault(file, 0L);
        return seconds <= 0 ? 0 : ticks / 100.0 / seconds; // USER_HZ, 100 on Linux
    }

    static long tree(long pid, Map<Long, Long> own, Map<Long, List<Long>> children) {
        long sum = own.getOrDefault(pid, 0L);
        for (long child : children.getOrDefault(pid, List.of())) {
            sum += tree(child, own, children);
        }
        return sum;
    }

    /**
     * {ppid, utime + stime + cutime + cstime} of /proc/PID/stat, or null when the process is gone. The
     * children's part holds the CPU of children that ended (e.g. a PostgreSQL backend whose connection
     * closed), so that summing a process tree counts every tick once, ended processes included.
     */
    static long[] stat(Path file) {
        try {
            String text = Files.readString(file);
            String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12])
                    + Long.parseLong(f[13]) + Long.parseLong(f[14])};
        } catch (Exception e) {
            return null;
        }
    }

    /** Cores used by the stack's processes (ORDER) between a and b: the generator and the simulators left out. */
    static double stackCores(CpuSample a, CpuSample b) {
        double seconds = (b.nanos - a.nanos) / 1e9;
        double ticks = 0;
        for (String n : ORDER) {
            ticks += b.ticks.getOrDefault(n, 0L) - a.ticks.getOrDefault(n, 0L);
        }
        return seconds <= 0 ? 0 : ticks / 100.0 / seconds; // USER_HZ, 100 on Linux
    }

    /**
     * CPU|name|seconds|process=cores|...|kernel irq=cores|other processes=cores|idle=cores|stack=cores, where
     * cores = CPU seconds / window seconds; kernel irq is interrupt and softirq time (loopback TCP lands there), not
     * charged to any process; other processes = the machine's busy time minus all of the above; stack = the ORDER
     * processes summed (stackCores).
     */
    static String line(String name, CpuSample a, CpuSample b) {
        if (a.ticks.isEmpty() || b.ticks.isEmpty()) {
            return "CPU|" + name + "|unavailable";
        }
        double seconds = (b.nanos - a.nanos) / 1e9;
        double hz = 100.0; // USER_HZ, 100 on Linux
        double cores = Runtime.getRuntime().availableProcessors();
        double totalTicks = b.machineTotal - a.machineTotal;
        double busyCores = totalTicks <= 0 ? 0 : cores * (b.machineBusy - a.machineBusy) / totalTicks;
        double irqCores = totalTicks <= 0 ? 0 : cores * (b.machineIrq - a.machineIrq) / totalTicks;
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "CPU|%s|%.1f", name, seconds));
        double known = 0;
        List<String> names = new ArrayList<>(List.of(ORDER));
        names.add("load generator");
        for (String n : names) {
            double used = (b.ticks.getOrDefault(n, 0L) - a.ticks.getOrDefault(n, 0L)) / hz / seconds;
            known += used;
            out.append(String.format(Locale.ROOT, "|%s=%.2f", n, used));
        }
        out.append(String.format(Locale.ROOT, "|kernel irq=%.2f|other processes=%.2f|idle=%.2f|stack=%.2f", irqCores,
                Math.max(0, busyCores - known - irqCores), Math.max(0, cores - busyCores), stackCores(a, b)));
        return out.toString();
    }
}

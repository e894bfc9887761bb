package io.imcore.auth.user;

import at.favre.lib.crypto.bcrypt.BCrypt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The raw bcrypt rate of this machine (the work of {@link PasswordHasher}), for deploy/bench/auth.sh to set token
 * issuance against:
 * {@code java -cp 'auth-service/target/quarkus-app/app/*:auth-service/target/quarkus-app/lib/main/*'
 * io.imcore.auth.user.HashRate COST SECONDS THREADS}. Prints hashes per second.
 */
public final class HashRate {

    private HashRate() {}

    public static void main(String[] args) throws InterruptedException {
        int cost = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
        char[] password = "benchmark-password".toCharArray();
        AtomicLong hashes = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                while (System.nanoTime() < deadline) {
                    BCrypt.withDefaults().hash(cost, password);
                    hashes.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(seconds + 60L, TimeUnit.SECONDS);
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.out.printf("bcrypt cost %d, %d threads: %d hashes in %.1f s = %.1f hashes/s%n",
                cost, threads, hashes.get(), elapsed, hashes.get() / elapsed);
    }
}

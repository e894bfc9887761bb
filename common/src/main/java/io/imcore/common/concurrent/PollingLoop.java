package io.imcore.common.concurrent;

import java.util.function.IntSupplier;
import org.jboss.logging.Logger;

/**
 * A daemon thread that runs a unit of work again and again: at once while it finds a full batch, after
 * {@code idleMillis} when it found less, and after a doubling pause (up to 5 s) while it fails. The outbox relay and
 * the offline push publisher run on it.
 */
public final class PollingLoop {

    private static final long MAX_BACKOFF_MILLIS = 5_000;

    private final String name;
    private final long idleMillis;
    private final int fullBatch;
    private final IntSupplier work;
    private final Logger log;
    private volatile boolean running;
    private Thread thread;

    /** {@code work} returns how many items it handled; {@code fullBatch} or more means "more may be waiting". */
    public PollingLoop(String name, long idleMillis, int fullBatch, IntSupplier work, Logger log) {
        this.name = name;
        this.idleMillis = idleMillis;
        this.fullBatch = fullBatch;
        this.work = work;
        this.log = log;
    }

    public void start() {
        running = true;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the loop and waits up to 5 s for the unit of work in progress. */
    public void stop() throws InterruptedException {
        if (thread == null) {
            return;
        }
        running = false;
        thread.interrupt();
        thread.join(5_000);
    }

    private void loop() {
        long backoff = idleMillis;
        while (running) {
            try {
                int handled = work.getAsInt();
                backoff = idleMillis;
                if (handled < fullBatch) {
                    Thread.sleep(idleMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.warnf("%s failed, retrying in %d ms: %s", name, backoff, e.getMessage());
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    return;
                }
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            }
        }
    }
}

package io.imcore.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * GroupCommitter on a real PostgreSQL: what queues while a commit runs goes in the next one, a repeated key waits
 * for a later batch, a bad item fails alone; with several threads an item goes to the thread it names, the work
 * after a commit runs before the callers are answered, and an item stored now goes through the same store on the
 * caller's thread.
 */
@QuarkusTest
@QuarkusTestResource(TestPostgresResource.class)
class GroupCommitterTest {

    @Inject
    Database database;

    /** Each stored batch, as its items; the first batch waits for {@code release}. */
    private final List<List<String>> batches = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstStarted = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final DistributionSummary sizes = DistributionSummary.builder("test.batch")
            .register(new SimpleMeterRegistry());

    private GroupCommitter<String, String> committer() {
        return new GroupCommitter<>("test-commit", database, 100, item -> item.split("#")[0], (c, items) -> {
            if (batches.isEmpty()) {
                firstStarted.countDown();
                awaitRelease();
            }
            batches.add(items);
            List<String> answers = new ArrayList<>();
            for (String item : items) {
                if (item.startsWith("bad")) {
                    throw new SQLException("refused: " + item);
                }
                // a real statement in the batch's transaction: the commit is PostgreSQL's
                c.createStatement().execute("select 1");
                answers.add("stored " + item);
            }
            return answers;
        }, sizes);
    }

    @Test
    void whatQueuesDuringACommitGoesInTheNextOneAndARepeatedKeyInALaterOne() throws Exception {
        GroupCommitter<String, String> committer = committer();
        committer.start();
        try {
            CompletableFuture<String> first = committer.submit("a");
            assertTrue(firstStarted.await(10, TimeUnit.SECONDS));
            List<CompletableFuture<String>> queued = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                queued.add(committer.submit("k" + i));
            }
            CompletableFuture<String> repeated = committer.submit("k7#again");
            assertFalse(first.isDone(), "answered only after its commit");
            release.countDown();
            assertEquals("stored a", first.get(10, TimeUnit.SECONDS));
            for (int i = 0; i < 50; i++) {
                assertEquals("stored k" + i, queued.get(i).get(10, TimeUnit.SECONDS));
            }
            assertEquals("stored k7#again", repeated.get(10, TimeUnit.SECONDS));
            assertEquals(List.of("a"), batches.get(0));
            assertEquals(50, batches.get(1).size(), "everything queued during the first commit, in one");
            assertEquals(List.of("k7#again"), batches.get(2), "the repeated key waited for the next batch");
            assertEquals(3, sizes.count());
        } finally {
            committer.stop();
        }
    }

    @Test
    void aBadItemFailsAloneAndTheOthersOfItsBatchAreStored() throws Exception {
        GroupCommitter<String, String> committer = committer();
        committer.start();
        try {
            committer.submit("warm");
            assertTrue(firstStarted.await(10, TimeUnit.SECONDS));
            CompletableFuture<String> good = committer.submit("good");
            CompletableFuture<String> bad = committer.submit("bad");
            CompletableFuture<String> other = committer.submit("other");
            release.countDown();
            assertEquals("stored good", good.get(10, TimeUnit.SECONDS));
            assertEquals("stored other", other.get(10, TimeUnit.SECONDS));
            ExecutionException failure = assertThrows(ExecutionException.class, () -> bad.get(10, TimeUnit.SECONDS));
            assertTrue(failure.getCause().getMessage().contains("refused: bad"), failure.getCause().toString());
        } finally {
            committer.stop();
        }
    }

    @Test
    void afterTheStopAnItemIsStoredAlone() throws Exception {
        GroupCommitter<String, String> committer = committer();
        release.countDown();
        committer.start();
        committer.stop();
        assertEquals("stored late", committer.submit("late").get(10, TimeUnit.SECONDS));
        assertEquals(List.of(List.of("late")), batches);
    }

    @Test
    void itemsGoToTheThreadTheyNameAndTheWorkAfterACommitRunsBeforeTheAnswers() throws Exception {
        List<String> threadsOfA = new CopyOnWriteArrayList<>();
        List<String> announced = new CopyOnWriteArrayList<>();
        Timer waits = Timer.builder("test.wait").register(new SimpleMeterRegistry());
        Timer transactions = Timer.builder("test.transaction").register(new SimpleMeterRegistry());
        GroupCommitter<String, String> committer = new GroupCommitter<>("test-threads", 2,
                item -> item.startsWith("a") ? 0 : 1, database, 100, item -> null, (c, items) -> {
                    if (items.get(0).startsWith("a")) {
                        threadsOfA.add(Thread.currentThread().getName());
                    }
                    List<String> answers = items.stream().map(item -> "stored " + item).toList();
                    return new GroupCommitter.Stored<>(answers, () -> announced.addAll(items));
                }, new GroupCommitter.Meters(sizes, waits, transactions));
        committer.start();
        try {
            List<CompletableFuture<String>> answers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String item = (i % 2 == 0 ? "a" : "b") + i;
                answers.add(committer.submit(item).thenApply(answer -> {
                    assertTrue(announced.contains(item), "announced before its caller is answered: " + item);
                    return answer;
                }));
            }
            for (int i = 0; i < 20; i++) {
                assertEquals("stored " + (i % 2 == 0 ? "a" : "b") + i, answers.get(i).get(10, TimeUnit.SECONDS));
            }
            assertEquals(List.of("test-threads-0"), threadsOfA.stream().distinct().toList());
            assertEquals(20, waits.count(), "each item's wait is timed once");
            assertEquals(sizes.count(), transactions.count(), "each commit's transaction is timed once");

            String caller = Thread.currentThread().getName();
            assertEquals("stored a-now", committer.storeNow("a-now"));
            assertEquals(caller, threadsOfA.get(threadsOfA.size() - 1), "stored on the caller's thread");
            assertTrue(announced.contains("a-now"));
            assertEquals(20, waits.count(), "an item stored now is not a group commit's");
        } finally {
            committer.stop();
        }
    }

    private void awaitRelease() {
        try {
            if (!release.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the first batch");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

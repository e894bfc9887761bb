package io.imcore.console.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.backend.BackendClient.Service;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A page's calls to a service that accepts and never answers end within the page's budget, so the console answers
 * before the gateway gives up; once the budget is spent, later calls of the page are not even made.
 */
class BackendClientBudgetTest {

    /** A page whose budget started now: what the request-scoped PageBudget gives a page. */
    private static BackendClient withBudget(Duration budget, String url) {
        long deadline = System.nanoTime() + budget.toNanos();
        BackendClient client = new BackendClient() {
            @Override
            Duration timeLeft() {
                return Duration.ofNanos(deadline - System.nanoTime());
            }
        };
        client.json = new ObjectMapper();
        client.pushUrl = url;
        return client;
    }

    @Test
    void callsToAServiceThatNeverAnswersEndWithinThePagesBudget() throws Exception {
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (Exception closed) {
                    // the test is over
                }
            });
            BackendClient page = withBudget(Duration.ofMillis(1500), "http://127.0.0.1:" + silent.getLocalPort());
            long started = System.nanoTime();
            BackendClient.Answer first = page.get(Service.PUSH, "/push/task/list", Map.of());
            BackendClient.Answer second = page.get(Service.PUSH, "/push/stats/daily", Map.of());
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertEquals(0, first.code(), first.message());
            assertTrue(first.message().contains("HttpTimeoutException"), first.message());
            assertEquals(0, second.code());
            assertTrue(second.message().contains("page-budget"), second.message());
            assertTrue(tookMs < 4_000, "both calls of the page ended within its budget, not after "
                    + "10 s each: took " + tookMs + " ms");
            acceptor.interrupt();
        } finally {
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }
}

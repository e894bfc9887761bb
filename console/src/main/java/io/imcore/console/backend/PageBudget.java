package io.imcore.console.backend;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The time left for the page being served: its calls to the services share {@code im.console.page-budget} (8 s),
 * so a page with several calls in turn still answers before the gateway gives up (9 s, docs/reliability.md
 * "Every call within the gateway's time"). Starts at the page's first call.
 */
@RequestScoped
public class PageBudget {

    @ConfigProperty(name = "im.console.page-budget", defaultValue = "8S")
    Duration budget;

    private long deadlineNanos;

    @PostConstruct
    void start() {
        deadlineNanos = System.nanoTime() + budget.toNanos();
    }

    public Duration left() {
        return Duration.ofNanos(deadlineNanos - System.nanoTime());
    }
}

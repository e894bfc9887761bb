package io.imcore.console.page;

import io.quarkus.arc.Arc;
import io.quarkus.qute.EngineBuilder;
import io.quarkus.qute.i18n.MessageBundles;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Gives every template instance created during a request the request's language as its {@code locale}, which
 * selects the message bundle of its {@code {msg:...}} expressions: pages, htmx fragments and refusals alike, without
 * each page class setting it.
 */
@ApplicationScoped
public class LanguageInitializer {

    void configure(@Observes EngineBuilder builder) {
        builder.addTemplateInstanceInitializer(instance -> {
            if (Arc.container().requestContext().isActive()) {
                instance.setAttribute(MessageBundles.ATTRIBUTE_LOCALE,
                        Arc.container().instance(Language.class).get().locale());
            }
        });
    }
}

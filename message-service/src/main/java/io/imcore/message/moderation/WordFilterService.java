package io.imcore.message.moderation;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.StorableText;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** An app's word list (docs/webhooks.md "The word filter"): replaced whole, or edited by adding and removing words. */
@ApplicationScoped
public class WordFilterService {

    static final int MAX_WORDS = 20_000;
    static final int MAX_WORD_LENGTH = 50;

    /** Body of POST /app/word_filter: the whole list; {@code action} refuse or mask. */
    public record Replace(String action, List<String> words) {}

    /** Body of POST /app/word_filter/edit: words to add and to remove; {@code action} changes it when given. */
    public record Edit(String action, List<String> add, List<String> remove) {}

    private final Database database;
    private final WordFilterStore store;
    private final Moderation moderation;

    public WordFilterService(Database database, WordFilterStore store, Moderation moderation) {
        this.database = database;
        this.store = store;
        this.moderation = moderation;
    }

    /** The app's list, or null when it has none. */
    public WordFilterStore.Stored read(String appId) {
        return database.read(c -> store.find(c, appId)).orElse(null);
    }

    public WordFilterStore.Stored replace(String appId, Replace body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        if (body.action() == null) {
            throw ApiException.badParameter("action", "required: refuse or mask");
        }
        return save(appId, action(body.action()), words("words", body.words(), Set.of()));
    }

    public WordFilterStore.Stored edit(String appId, Edit body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        return database.inTransaction(c -> {
            WordFilterStore.Stored current = store.find(c, appId).orElse(null);
            WordFilter.Action action = body.action() != null ? action(body.action())
                    : current != null ? current.action() : null;
            if (action == null) {
                throw ApiException.badParameter("action", "required: the app has no word list yet");
            }
            Set<String> words = new LinkedHashSet<>(current == null ? List.of() : current.words());
            words.removeAll(words("remove", body.remove(), Set.of()));
            words.addAll(words("add", body.add(), words));
            List<String> list = List.copyOf(words);
            if (list.size() > MAX_WORDS) {
                throw ApiException.badParameter("add", "the list would hold more than " + MAX_WORDS + " words");
            }
            store.save(c, appId, action, list);
            moderation.forget(appId);
            return new WordFilterStore.Stored(action, list);
        });
    }

    public boolean delete(String appId) {
        database.autoCommit(c -> {
            store.delete(c, appId);
            return null;
        });
        moderation.forget(appId);
        return true;
    }

    private WordFilterStore.Stored save(String appId, WordFilter.Action action, List<String> words) {
        database.autoCommit(c -> {
            store.save(c, appId, action, words);
            return null;
        });
        moderation.forget(appId);
        return new WordFilterStore.Stored(action, words);
    }

    private static WordFilter.Action action(String action) {
        return switch (action.toLowerCase(Locale.ROOT)) {
            case "refuse" -> WordFilter.Action.REFUSE;
            case "mask" -> WordFilter.Action.MASK;
            default -> throw ApiException.badParameter("action", "must be refuse or mask");
        };
    }

    /** The words trimmed, without blanks' and repeats; each 1 to 50 characters. {@code existing}: counted with them. */
    private static List<String> words(String field, List<String> words, Set<String> existing) {
        if (words == null) {
            return List.of();
        }
        if (words.size() + existing.size() > MAX_WORDS) {
            throw ApiException.badParameter(field, "at most " + MAX_WORDS + " words");
        }
        Set<String> checked = new LinkedHashSet<>();
        for (String word : words) {
            String trimmed = word == null ? "" : word.strip();
            if (trimmed.isEmpty()) {
                throw ApiException.badParameter(field, "words must not be blank");
            }
            if (trimmed.length() > MAX_WORD_LENGTH) {
                throw ApiException.badParameter(field, "words are at most " + MAX_WORD_LENGTH + " characters");
            }
            StorableText.check(field, trimmed);
            checked.add(trimmed);
        }
        return List.copyOf(checked);
    }
}

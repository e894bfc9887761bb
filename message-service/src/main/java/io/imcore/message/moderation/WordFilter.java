package io.imcore.message.moderation;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An app's forbidden words, matched in one pass over a text whatever their number (Aho-Corasick: a trie of the
 * words with failure links, so the text is read once and never backtracked). Matching ignores case (each character
 * folded on its own, so positions in the folded text are positions in the original). Immutable, thread-safe.
 */
public final class WordFilter {

    /** What a send whose text contains a word gets. */
    public enum Action {
        /** 21001, nothing stored. */
        REFUSE,
        /** Stored with each character of every matched word replaced by {@code *}. */
        MASK;

        @JsonValue
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Action action;
    /** Transitions: (state << 16 | character) -> next state. */
    private final Map<Long, Integer> next = new HashMap<>();
    /** Per state: where matching continues when no transition fits (the longest proper suffix in the trie). */
    private final int[] failure;
    /** Per state: the length of the longest word that ends here, itself or through its failure chain; 0 for none. */
    private final int[] longestMatch;

    public WordFilter(Action action, Collection<String> words) {
        this.action = action;
        int capacity = 1;
        for (String word : words) {
            capacity += word.length();
        }
        int[] ownMatch = new int[capacity];
        int states = 1;
        for (String word : words) {
            int state = 0;
            for (int i = 0; i < word.length(); i++) {
                long key = key(state, fold(word.charAt(i)));
                Integer to = next.get(key);
                if (to == null) {
                    to = states++;
                    next.put(key, to);
                }
                state = to;
            }
            ownMatch[state] = word.length();
        }
        failure = new int[states];
        longestMatch = new int[states];
        linkFailures(states, ownMatch);
    }

    /** Breadth first, so that a state's failure target, which is shallower, is linked before it. */
    private void linkFailures(int states, int[] ownMatch) {
        Map<Integer, Map<Character, Integer>> children = new HashMap<>();
        next.forEach((key, to) -> children.computeIfAbsent((int) (key >>> 16), s -> new HashMap<>())
                .put((char) (key & 0xffff), to));
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(0);
        while (!queue.isEmpty()) {
            int state = queue.poll();
            for (Map.Entry<Character, Integer> child : children.getOrDefault(state, Map.of()).entrySet()) {
                int to = child.getValue();
                failure[to] = state == 0 ? 0 : step(failure[state], child.getKey());
                longestMatch[to] = Math.max(ownMatch[to], longestMatch[failure[to]]);
                queue.add(to);
            }
        }
    }

    public Action action() {
        return action;
    }

    /** Whether the text contains one of the words. */
    public boolean matches(String text) {
        int state = 0;
        for (int i = 0; i < text.length(); i++) {
            state = step(state, fold(text.charAt(i)));
            if (longestMatch[state] > 0) {
                return true;
            }
        }
        return false;
    }

    /** The text with each character of every occurrence of a word replaced by {@code *}; the same text if none. */
    public String mask(String text) {
        char[] masked = null;
        int state = 0;
        for (int i = 0; i < text.length(); i++) {
            state = step(state, fold(text.charAt(i)));
            int length = longestMatch[state]; // a shorter word ending here lies inside this one
            if (length > 0) {
                if (masked == null) {
                    masked = text.toCharArray();
                }
                for (int j = i - length + 1; j <= i; j++) {
                    masked[j] = '*';
                }
            }
        }
        return masked == null ? text : new String(masked);
    }

    private int step(int state, char c) {
        while (true) {
            Integer to = next.get(key(state, c));
            if (to != null) {
                return to;
            }
            if (state == 0) {
                return 0;
            }
            state = failure[state];
        }
    }

    private static long key(int state, char c) {
        return ((long) state << 16) | c;
    }

    private static char fold(char c) {
        return Character.toLowerCase(c);
    }
}

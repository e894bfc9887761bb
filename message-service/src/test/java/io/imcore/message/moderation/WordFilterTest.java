package io.imcore.message.moderation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WordFilterTest {

    private static final List<String> WORDS = List.of("fraud", "法轮", "赌博", "he", "she", "hers", "博彩");

    @Test
    void findsChineseAndEnglishWordsIgnoringCase() {
        WordFilter filter = new WordFilter(WordFilter.Action.REFUSE, WORDS);
        assertTrue(filter.matches("this is FRAUD"));
        assertTrue(filter.matches("网上赌博平台"));
        assertTrue(filter.matches("ushers"), "a word inside a word");
        assertFalse(filter.matches("你好, a clean message"));
        assertFalse(filter.matches(""));
    }

    @Test
    void masksEveryOccurrenceIncludingOverlappingOnes() {
        WordFilter filter = new WordFilter(WordFilter.Action.MASK, WORDS);
        assertEquals("no ***** now, ** and **", filter.mask("no Fraud now, 赌博 and 博彩"));
        assertEquals("u*****", filter.mask("ushers"), "she, he and hers overlap");
        assertEquals("网上****平台", filter.mask("网上赌博博彩平台"));
        String clean = "nothing to mask 你好";
        assertTrue(clean == filter.mask(clean), "a clean text is returned as it is");
    }

    @Test
    void aFailureLinkLeadsIntoAnotherWord() {
        // "abcd" fails after "abc" into "bcx"'s branch: the match of "bcx" must still be found
        WordFilter filter = new WordFilter(WordFilter.Action.MASK, List.of("abcd", "bcx", "c"));
        assertEquals("a****", filter.mask("abcxc"));
        assertEquals("x****x", filter.mask("xabcdx"));
    }

    @Test
    void thousandsOfWordsStayOnePass() {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            words.add("词" + i + "语");
        }
        WordFilter filter = new WordFilter(WordFilter.Action.MASK, words);
        assertEquals("说****了", filter.mask("说词42语了"));
        assertEquals("说词42了", filter.mask("说词42了"));
    }
}

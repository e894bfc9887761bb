package io.imcore.push.device;

/**
 * Masks a provider device token for display (console contract item 6): its first 6 and last 4 characters stay,
 * the rest becomes "****". A token shorter than 20 characters is masked whole, so that at least half of any token
 * shown stays hidden.
 */
final class TokenMask {

    static final String HIDDEN = "****";
    private static final int HEAD = 6;
    private static final int TAIL = 4;
    private static final int SHORTEST_SHOWN = 20;

    private TokenMask() {
    }

    static String mask(String token) {
        if (token.length() < SHORTEST_SHOWN) {
            return HIDDEN;
        }
        return token.substring(0, HEAD) + HIDDEN + token.substring(token.length() - TAIL);
    }
}

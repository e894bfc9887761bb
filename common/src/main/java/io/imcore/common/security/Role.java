package io.imcore.common.security;

/** The role claim of an access token. */
public enum Role {
    USER, ADMIN;

    public String claim() {
        return name().toLowerCase();
    }

    public static Role fromClaim(String claim) {
        for (Role role : values()) {
            if (role.claim().equals(claim)) {
                return role;
            }
        }
        return null;
    }
}

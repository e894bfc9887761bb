package io.imcore.auth.token;

import io.imcore.common.context.Access;
import io.imcore.common.security.TokenVerifier;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;

/**
 * The token-verification key set in force, as a JWK Set (RFC 7517 section 5, media type of section 8.5) with public
 * members only: for verifiers that read it from a URL ({@code mp.jwt.verify.publickey.location}) instead of the
 * mounted file, and to check which keys a rotation has reached. Not routed by the gateway or the Ingress; no key
 * needed, since the keys are public.
 */
@Path("/internal/jwks")
@Access(Access.Level.PUBLIC)
public class JwksResource {

    static final String JWK_SET_JSON = "application/jwk-set+json";

    private final TokenVerifier verifier;

    public JwksResource(TokenVerifier verifier) {
        this.verifier = verifier;
    }

    @GET
    @Produces(JWK_SET_JSON)
    public String keySet() {
        return verifier.keySet().orElseThrow(() -> new IllegalStateException("the key set comes from a URL")).toJson();
    }
}

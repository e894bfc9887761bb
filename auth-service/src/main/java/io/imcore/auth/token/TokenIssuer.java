package io.imcore.auth.token;

import io.imcore.common.security.JwtConfig;
import io.imcore.common.security.KeyFile;
import io.imcore.common.security.Keys;
import io.imcore.common.security.Role;
import io.imcore.common.security.TokenClaims;
import io.imcore.common.security.TokenKeySet;
import io.imcore.common.security.TokenVerifier;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Signs access tokens (RS256, smallrye-jwt-build) with the private key that only auth-service holds. The token's
 * {@code kid} is the name the verification key set gives that key's public half: a signing key missing from the set
 * would issue tokens no service accepts, so auth-service does not start with one, and a replaced key file is taken
 * only once the set holds its key. The key file is re-read like the key set: replacing it switches signing.
 */
@Startup
@ApplicationScoped
public class TokenIssuer {

    private static final Logger LOG = Logger.getLogger(TokenIssuer.class);

    private final JwtConfig config;
    private final TokenVerifier verifier;
    private final KeyFile keyFile;
    private volatile SigningKey signing;

    public TokenIssuer(JwtConfig config, TokenVerifier verifier) {
        this.config = config;
        this.verifier = verifier;
        this.keyFile = new KeyFile(config.privateKeyLocation().filter(l -> !l.isBlank()).orElseThrow(
                () -> new IllegalStateException("no token signing key: set im.jwt.private-key-location")));
        this.signing = signingKey(keyFile.content());
        LOG.infof("signing tokens with key %s; key files re-read every %s", signing.kid(), config.keyReloadInterval());
    }

    public record Issued(String token, long expire, String publicKey) {}

    public Issued userToken(String appId, long userId, int tokenVersion, Integer deviceSn) {
        JwtClaimsBuilder claims = base(appId, Role.USER, tokenVersion)
                .subject(Long.toString(userId));
        if (deviceSn != null) {
            claims.claim(TokenClaims.DEVICE_SN, deviceSn);
        }
        return sign(claims, config.userTokenTtlSeconds());
    }

    public Issued adminToken(String appId, int adminTokenVersion) {
        return sign(base(appId, Role.ADMIN, adminTokenVersion).subject("admin"),
                config.adminTokenTtlSeconds());
    }

    /** Takes a replaced signing key file once the key set holds its public key. */
    @Scheduled(every = "${im.jwt.key-reload-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public void reload() {
        try {
            Optional<SigningKey> loaded = keyFile.ifChanged(this::signingKey);
            if (loaded.isPresent()) {
                signing = loaded.get();
                LOG.infof("signing key reloaded from %s: now signing with key %s", keyFile.location(), signing.kid());
            }
        } catch (IOException | RuntimeException e) {
            LOG.errorf("signing key at %s not reloaded, still signing with key %s: %s", keyFile.location(),
                    signing.kid(), e.getMessage());
        }
    }

    private static JwtClaimsBuilder base(String appId, Role role, int version) {
        return Jwt.issuer(TokenClaims.ISSUER)
                .claim(TokenClaims.APP, appId)
                .claim(TokenClaims.ROLE, role.claim())
                .claim(TokenClaims.TOKEN_VERSION, version);
    }

    private Issued sign(JwtClaimsBuilder claims, long ttlSeconds) {
        SigningKey key = signing;
        // the kid is looked up at each signature: a reloaded key set may have renamed the key, or dropped it
        String kid = verifier.keySet().flatMap(set -> set.kidOf(key.publicKey())).orElseThrow(
                () -> new IllegalStateException("the signing key is no longer in the verification key set"));
        long now = System.currentTimeMillis() / 1000;
        long expire = now + ttlSeconds;
        String token = claims.issuedAt(now).expiresAt(expire)
                .jws().keyId(kid).algorithm(SignatureAlgorithm.RS256)
                .sign(key.privateKey());
        return new Issued(token, expire, key.publicKeyBase64());
    }

    /** The key of a key file, if the verification key set knows it. */
    private SigningKey signingKey(String pem) {
        PrivateKey privateKey = Keys.privateKey(Optional.of(pem), Optional.empty());
        RSAPublicKey publicKey = publicHalf(privateKey);
        TokenKeySet set = verifier.keySet().orElseThrow(() -> new IllegalStateException(
                "auth-service needs the verification key set as a file (mp.jwt.verify.publickey.location), not a URL"));
        String kid = set.kidOf(publicKey).orElseThrow(() -> new IllegalStateException("the signing key at "
                + keyFile.location() + " is not in the verification key set (" + set + "): add its public key to the "
                + "set first (docs/operations.md, key rotation)"));
        return new SigningKey(privateKey, publicKey, kid, Keys.base64(publicKey));
    }

    /** A PKCS#8 RSA key carries its public modulus and exponent. */
    private static RSAPublicKey publicHalf(PrivateKey key) {
        if (!(key instanceof RSAPrivateCrtKey crt)) {
            throw new IllegalStateException("the signing key must be an RSA key in PKCS#8 form");
        }
        try {
            return (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(crt.getModulus(), crt.getPublicExponent()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot derive the signing key's public key", e);
        }
    }

    /** {@code kid} as named when the key was loaded, for the logs. */
    private record SigningKey(PrivateKey privateKey, RSAPublicKey publicKey, String kid, String publicKeyBase64) {}
}

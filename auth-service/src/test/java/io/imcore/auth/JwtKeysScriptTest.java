package io.imcore.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.imcore.common.security.Keys;
import io.imcore.common.security.TokenKeySet;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/jwt/jwt-keys.sh (bash and openssl) writes the key sets the services read: its kids must be the RFC 7638
 * thumbprints auth-service and the test keys use, and its sets must parse as our verifier parses them.
 */
class JwtKeysScriptTest {

    private static final Path SCRIPT = Path.of("..", "deploy", "jwt", "jwt-keys.sh");

    @TempDir
    Path directory;

    @BeforeAll
    static void toolsPresent() throws Exception {
        assumeTrue(run("openssl", "version").startsWith("OpenSSL"), "openssl is not installed");
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }

    private static String script(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(arguments));
        return run(command.toArray(String[]::new)).trim();
    }

    private static RSAPublicKey publicKeyOf(Path privatePem) throws Exception {
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) Keys.privateKey(Optional.of(Files.readString(privatePem)),
                Optional.empty());
        return (RSAPublicKey) KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
    }

    @Test
    void theKidIsTheRfc7638ThumbprintOfTheSpecsExample() throws Exception {
        // RFC 7638 section 3.1: the example key and its thumbprint
        BigInteger modulus = new BigInteger(1, Base64.getUrlDecoder().decode("0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAF"
                + "bWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl9"
                + "3lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08q"
                + "NLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"));
        RSAPublicKey example = (RSAPublicKey) KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(modulus, BigInteger.valueOf(65537)));
        Path pem = directory.resolve("example.pub");
        Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(example.getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        assertEquals("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", script("kid", pem.toString()));
    }

    @Test
    void newKeysAndTheirSetAgreeWithTheServices() throws Exception {
        List<String> pems = new ArrayList<>();
        List<RSAPublicKey> keys = new ArrayList<>();
        // a few keys: some moduli hold zero bytes inside, which the hex-to-binary step must keep
        for (int i = 0; i < 4; i++) {
            Path pem = directory.resolve("key" + i + ".pem");
            String kid = script("new", pem.toString());
            RSAPublicKey key = publicKeyOf(pem);
            assertEquals(TokenKeySet.thumbprint(key), kid);
            pems.add(pem.toString());
            keys.add(key);
        }
        List<String> arguments = new ArrayList<>(List.of("jwks"));
        arguments.addAll(pems);
        String jwks = script(arguments.toArray(String[]::new));
        assertFalse(jwks.contains("\"d\""), jwks);
        TokenKeySet set = TokenKeySet.parse(jwks);
        for (RSAPublicKey key : keys) {
            assertEquals(Optional.of(TokenKeySet.thumbprint(key)), set.kidOf(key));
        }
        assertEquals(keys.size(), set.kids().size());
    }
}

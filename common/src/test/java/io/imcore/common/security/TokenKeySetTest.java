package io.imcore.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import java.util.Optional;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.RsaJsonWebKey;
import org.junit.jupiter.api.Test;

class TokenKeySetTest {

    /** RFC 7638 section 3.1: the example RSA key and its SHA-256 thumbprint. */
    private static final String RFC_7638_N = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFx"
            + "uhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2Q"
            + "vzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcR"
            + "wr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
    private static final String RFC_7638_THUMBPRINT = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs";

    static KeyPair rsa(int bits) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(bits);
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static RSAPublicKey publicKey(KeyPair keys) {
        return (RSAPublicKey) keys.getPublic();
    }

    @Test
    void thumbprintIsTheRfc7638One() throws Exception {
        RSAPublicKey example = ((RsaJsonWebKey) JsonWebKey.Factory.newJwk(
                "{\"kty\":\"RSA\",\"e\":\"AQAB\",\"n\":\"" + RFC_7638_N + "\"}")).getRsaPublicKey();
        assertEquals(RFC_7638_THUMBPRINT, TokenKeySet.thumbprint(example));
    }

    @Test
    void aWrittenSetReadsBackWithItsKidsAndPublicMembersOnly() {
        KeyPair first = rsa(2048);
        KeyPair second = rsa(2048);
        String json = TokenKeySet.of(List.of(publicKey(first), publicKey(second))).toJson();
        assertFalse(json.contains("\"d\""), json);
        TokenKeySet read = TokenKeySet.parse(json);
        assertEquals(List.of(TokenKeySet.thumbprint(first.getPublic()), TokenKeySet.thumbprint(second.getPublic())),
                List.copyOf(read.kids()));
        assertEquals(Optional.of(TokenKeySet.thumbprint(second.getPublic())), read.kidOf(publicKey(second)));
        assertEquals(Optional.empty(), read.kidOf(publicKey(rsa(2048))));
        assertTrue(json.contains("\"alg\":\"RS256\"") && json.contains("\"use\":\"sig\""), json);
    }

    @Test
    void theKidOfASetIsWhateverItNamesTheKey() {
        KeyPair keys = rsa(2048);
        String json = TokenKeySet.of(List.of(publicKey(keys))).toJson()
                .replace(TokenKeySet.thumbprint(keys.getPublic()), "2026-05");
        assertEquals(Optional.of("2026-05"), TokenKeySet.parse(json).kidOf(publicKey(keys)));
    }

    @Test
    void setsThatCannotVerifyAreRefused() throws Exception {
        KeyPair keys = rsa(2048);
        String one = TokenKeySet.of(List.of(publicKey(keys))).toJson();
        String kid = TokenKeySet.thumbprint(keys.getPublic());
        RsaJsonWebKey withPrivate = new RsaJsonWebKey(publicKey(keys));
        withPrivate.setPrivateKey(keys.getPrivate());
        withPrivate.setKeyId(kid);
        String privateSet = "{\"keys\":[" + withPrivate.toJson(JsonWebKey.OutputControlLevel.INCLUDE_PRIVATE) + "]}";
        String ecSet = "{\"keys\":[{\"kty\":\"EC\",\"kid\":\"ec\",\"crv\":\"P-256\","
                + "\"x\":\"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU\",\"y\":\"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0\"}]}";
        for (String bad : List.of("", "not json", "{\"keys\":[]}", privateSet, ecSet,
                one.replace("\"kid\":\"" + kid + "\",", ""),
                one.replace("]}", "," + one.substring(one.indexOf('[') + 1)))) {
            assertThrows(IllegalArgumentException.class, () -> TokenKeySet.parse(bad), bad);
        }
    }
}

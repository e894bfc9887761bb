package io.imcore.push.certificate;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.imcore.push.AppPerTest;
import io.imcore.push.PushApi;
import io.imcore.pushcontract.Channel;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Push certificates: POST and GET /push/certificate, encryption at rest, the store's look-ups. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class CertificateTest extends AppPerTest {

    private static final String APNS_KEY = pem(newKey("EC", 0));
    private static final String RSA_KEY = pem(newKey("RSA", 2048));
    private static final String SERVICE_ACCOUNT = json(Map.of("type", "service_account", "project_id", "chat-1234",
            "client_email", "push@chat-1234.iam.gserviceaccount.com", "private_key", RSA_KEY));
    private static final String P12_PASSWORD = "p12-pass";
    private static final String APNS_P12 = apnsPkcs12(P12_PASSWORD);

    @Inject
    CertificateStore store;

    // ---------------------------------------------------------------- fixtures

    /** A valid body per provider: only the fields that provider's server API uses (docs/push-certificates.md). */
    static Map<String, Object> validBody(int provider) {
        Map<String, Object> body = new HashMap<>();
        body.put("provider", provider);
        body.put("name", "cert-" + provider);
        switch (Channel.fromProvider(provider).orElseThrow()) {
            case APNS -> {
                body.put("app_id", "ABCDE12345.com.example.chat");
                body.put("app_key", "KEY1234567");
                body.put("certificate", APNS_KEY);
            }
            case HUAWEI -> {
                body.put("app_id", "104567890");
                body.put("app_secret", "huawei-client-secret");
            }
            case XIAOMI -> {
                body.put("app_id", "com.example.chat");
                body.put("app_secret", "xiaomi-app-secret==");
            }
            case MEIZU -> {
                body.put("app_id", "146951");
                body.put("app_secret", "meizu-app-secret");
            }
            case VIVO -> {
                body.put("app_id", "10337");
                body.put("app_key", "b46efd9a-59e3-45f9-bc35-cc0ee888b0cc");
                body.put("app_secret", "vivo-app-secret");
            }
            case OPPO -> {
                body.put("app_key", "oppo-app-key");
                body.put("app_secret", "oppo-master-secret");
            }
            case FCM -> body.put("certificate", SERVICE_ACCOUNT);
            case SVCPUSH -> throw new IllegalArgumentException();
        }
        return body;
    }

    private static PrivateKey newKey(String algorithm, int size) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (size == 0) {
                generator.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                generator.initialize(size);
            }
            return generator.generateKeyPair().getPrivate();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(PrivateKey key) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    private static String json(Object value) {
        try {
            return new ObjectMapper().writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An APNs-like client certificate with its key, as Keychain exports it (the JDK has no API to make one). */
    private static String apnsPkcs12(String password) {
        try {
            Path dir = Files.createTempDirectory("apns");
            Path file = dir.resolve("apns.p12");
            Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "apns", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "3650",
                    "-dname", "CN=Apple Push Services: com.example.chat, UID=com.example.chat",
                    "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", password, "-keypass", password)
                    .redirectErrorStream(true).start();
            String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (keytool.waitFor() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            String base64 = Base64.getEncoder().encodeToString(Files.readAllBytes(file));
            Files.delete(file);
            Files.delete(dir);
            return base64;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private ValidatableResponse post(Map<String, Object> body) {
        return api.asAdmin().body(body).post("/push/certificate").then().statusCode(200);
    }

    private ValidatableResponse get(String query) {
        return api.asAdmin().get("/push/certificate" + query).then().statusCode(200);
    }

    private static void ok(ValidatableResponse response) {
        response.body("code", equalTo(200)).body("data", equalTo(true)).body("message", nullValue());
    }

    private static void badParameter(ValidatableResponse response, String field) {
        response.body("code", equalTo(10002)).body("data", nullValue()).body("message", startsWith(field + ":"));
    }

    private static String text(Map<String, Object> body, String field) {
        Object value = body.get(field);
        return value == null ? "" : value.toString();
    }

    /** The certificate as sent; its message_defaults as sent, or {} when none were sent. */
    private static void assertCertificate(ValidatableResponse response, Map<String, Object> body) {
        response.body("code", equalTo(200)).body("message", nullValue())
                .body("data.app_id", equalTo(text(body, "app_id")))
                .body("data.app_key", equalTo(text(body, "app_key")))
                .body("data.app_secret", equalTo(text(body, "app_secret")))
                .body("data.certificate", equalTo(text(body, "certificate")))
                .body("data.name", equalTo(body.get("name")))
                .body("data.message_defaults", equalTo(body.getOrDefault("message_defaults", Map.of())));
    }

    private int rows() {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select count(*) from push_certificates where app_id = ?")) {
                ps.setString(1, api.appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    // ---------------------------------------------------------------- upsert and read back

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    void everyProviderIsStoredAndReadBack(int provider) {
        Map<String, Object> body = validBody(provider);
        body.put("environment", 0);
        ok(post(body));
        assertCertificate(get("?provider=" + provider + "&environment=0"), body);
        get("?provider=" + provider + "&environment=1").body("code", equalTo(200)).body("data", nullValue());
    }

    @Test
    void apnsCertificateAuthTakesABase64Pkcs12AndItsPassword() {
        Map<String, Object> body = validBody(1);
        body.remove("app_key");
        body.put("certificate", APNS_P12);
        body.put("app_secret", P12_PASSWORD);
        ok(post(body));
        assertCertificate(get("?provider=1"), body);
        // keytool made it valid for 3650 days from now: the answer and the stored row say when it stops working
        long expiresAt = get("?provider=1").extract().jsonPath().getLong("data.expires_at");
        long expected = Instant.now().plus(Duration.ofDays(3650)).getEpochSecond();
        assertTrue(Math.abs(expiresAt - expected) < 86_400, "expires_at " + expiresAt + " against " + expected);
        long stored = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select extract(epoch from expires_at)::bigint from push_certificates where app_id = ? and provider = 1")) {
                ps.setString(1, api.appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
        assertEquals(expiresAt, stored);
    }

    @Test
    void theResponseCarriesTheFieldsOfApiSection27InOrderThenTheMessageDefaults() {
        ok(post(validBody(5)));
        String json = get("?provider=5").extract().asString();
        assertEquals(List.of("app_id", "app_key", "app_secret", "certificate", "name", "message_defaults"),
                new ArrayList<>(io.restassured.path.json.JsonPath.from(json).getMap("data").keySet()));
    }

    @Test
    void anUpsertReplacesTheCertificateOfTheSameProviderAndEnvironment() {
        ok(post(validBody(2)));
        Map<String, Object> replacement = validBody(2);
        replacement.put("name", "huawei-rotated");
        replacement.put("app_id", "999");
        replacement.put("app_secret", "rotated-secret");
        ok(post(replacement));
        assertCertificate(get("?provider=2"), replacement);
        assertEquals(1, rows());
    }

    @Test
    void environmentDefaultsToProduction() {
        Map<String, Object> body = validBody(3);
        ok(post(body));
        assertCertificate(get("?provider=3"), body);
        assertCertificate(get("?provider=3&environment=1"), body);
        get("?provider=3&environment=0").body("data", nullValue());
        Map<String, Object> development = validBody(3);
        development.put("environment", 0);
        development.put("name", "cert-3-dev");
        development.put("app_secret", "development-secret");
        ok(post(development));
        assertCertificate(get("?provider=3&environment=0"), development);
        assertCertificate(get("?provider=3"), body);
    }

    @Test
    void anUnknownCertificateIsNullData() {
        get("?provider=7").body("code", equalTo(200)).body("data", nullValue()).body("message", nullValue());
        ok(post(validBody(7)));
        PushApi other = PushApi.newApp(database);
        other.asAdmin().get("/push/certificate?provider=7").then().body("code", equalTo(200))
                .body("data", nullValue());
    }

    // ---------------------------------------------------------------- at rest

    @Test
    void secretsAreEncryptedAtRestAndIdsAreNot() {
        Map<String, Object> body = validBody(5);
        body.put("app_secret", "plain-secret-4711");
        body.put("certificate", "plain-certificate-0815");
        ok(post(body));
        database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select provider_app_id, app_key, app_secret_enc,"
                    + " certificate_enc, name from push_certificates where app_id = ?")) {
                ps.setString(1, api.appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals("10337", rs.getString(1));
                    assertEquals(body.get("app_key"), rs.getString(2));
                    for (int column : new int[] {3, 4}) {
                        String stored = new String(rs.getBytes(column), StandardCharsets.ISO_8859_1);
                        assertEquals(2, rs.getBytes(column)[0], "the current key's version (test profile: 2)");
                        assertFalse(stored.contains("plain"), "column " + column + " holds ciphertext only");
                    }
                    assertEquals("cert-5", rs.getString(5));
                }
            }
            return null;
        });
    }

    @Test
    void aSecretCopiedToAnotherRowDoesNotOpen() {
        ok(post(validBody(2)));
        Map<String, Object> development = validBody(2);
        development.put("environment", 0);
        development.put("name", "cert-2-dev");
        ok(post(development));
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update push_certificates set app_secret_enc ="
                    + " (select app_secret_enc from push_certificates where app_id = ? and provider = 2"
                    + " and environment = 1) where app_id = ? and provider = 2 and environment = 0")) {
                ps.setString(1, api.appId);
                ps.setString(2, api.appId);
                assertEquals(1, ps.executeUpdate());
            }
            return null;
        });
        get("?provider=2&environment=0").body("code", equalTo(50000)).body("data", nullValue());
        assertCertificate(get("?provider=2&environment=1"), validBody(2));
    }

    // ---------------------------------------------------------------- message_defaults

    /** A valid message_defaults per provider with every option it takes, and what is stored for it. */
    static Stream<Arguments> messageDefaults() {
        return Stream.of(
                Arguments.of(2, Map.of("category", "IM"), Map.of("category", "IM")),
                Arguments.of(3, Map.of("channel_id", "105411"), Map.of("channel_id", "105411")),
                Arguments.of(6, Map.of("category", "IM", "notify_level", 16),
                        Map.of("category", "IM", "notify_level", 16)),
                // vivo: the classification a category implies is stored with it
                Arguments.of(5, Map.of("category", "IM", "receipt_id", "10263"),
                        Map.of("category", "IM", "classification", 1, "receipt_id", "10263")),
                Arguments.of(5, Map.of("category", "MARKETING", "classification", 0),
                        Map.of("category", "MARKETING", "classification", 0)),
                Arguments.of(5, Map.of("classification", 1), Map.of("classification", 1)),
                Arguments.of(4, Map.of("notice_msg_type", 1), Map.of("notice_msg_type", 1)),
                // ios and cloud take none: an empty object is no defaults
                Arguments.of(1, Map.of(), Map.of()),
                Arguments.of(7, Map.of(), Map.of()));
    }

    @ParameterizedTest(name = "provider {0}: {1}")
    @MethodSource("messageDefaults")
    void messageDefaultsAreStoredAndReadBack(int provider, Map<String, Object> defaults, Map<String, Object> stored) {
        Map<String, Object> body = validBody(provider);
        body.put("message_defaults", defaults);
        ok(post(body));
        get("?provider=" + provider).body("code", equalTo(200)).body("data.message_defaults", equalTo(stored));
        assertEquals(stored, storedDefaults(provider));
    }

    @Test
    void absentNullOrUnsetMessageDefaultsAreNoneAndAReplacementReplacesThem() {
        Map<String, Object> body = validBody(6);
        ok(post(body));
        assertEquals(Map.of(), storedDefaults(6));
        body.put("message_defaults", Map.of("category", "IM", "notify_level", 2));
        ok(post(body));
        assertEquals(Map.of("category", "IM", "notify_level", 2), storedDefaults(6));
        Map<String, Object> unset = new HashMap<>();
        unset.put("category", "");
        unset.put("notify_level", null);
        body.put("message_defaults", unset);
        ok(post(body));
        assertEquals(Map.of(), storedDefaults(6), "empty and null options are not set");
        body.put("message_defaults", Map.of("category", "TODO"));
        ok(post(body));
        body.remove("message_defaults");
        ok(post(body));
        assertCertificate(get("?provider=6"), body);
        api.asAdmin().body("{\"provider\":6,\"name\":\"cert-6\",\"app_key\":\"k\",\"app_secret\":\"s\","
                + "\"message_defaults\":null}").post("/push/certificate").then().body("code", equalTo(200));
        assertEquals(Map.of(), storedDefaults(6));
    }

    private Map<String, Object> storedDefaults(int provider) {
        String json = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select message_defaults::text from push_certificates"
                    + " where app_id = ? and provider = ? and environment = 1")) {
                ps.setString(1, api.appId);
                ps.setInt(2, provider);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        });
        return io.restassured.path.json.JsonPath.from(json).getMap("$");
    }

    // ---------------------------------------------------------------- the store's look-ups

    @Test
    void theStoreFindsByNameAndLoadsDecryptedCredentials() {
        Map<String, Object> body = validBody(6);
        body.put("environment", 0);
        ok(post(body));
        assertEquals(Optional.of(new CertificateRef(Channel.OPPO, 0, "cert-6")),
                store.findByName(api.appId, "cert-6"));
        assertEquals(Optional.empty(), store.findByName(api.appId, "cert-7"));
        assertEquals(Optional.empty(), store.findByName("other-app", "cert-6"));
        assertEquals(Optional.of(new Certificate(Channel.OPPO, 0, "cert-6", "", "oppo-app-key",
                "oppo-master-secret", "", JsonNodeFactory.instance.objectNode())),
                store.find(api.appId, Channel.OPPO, 0));
        assertEquals(Optional.empty(), store.find(api.appId, Channel.OPPO, 1));
    }

    // ---------------------------------------------------------------- names

    @Test
    void aNameHeldByAnotherProviderOrEnvironmentIs10002() {
        ok(post(validBody(2)));
        Map<String, Object> sameName = validBody(3);
        sameName.put("name", "cert-2");
        badParameter(post(sameName), "name");
        Map<String, Object> otherEnvironment = validBody(2);
        otherEnvironment.put("environment", 0);
        badParameter(post(otherEnvironment), "name");
        get("?provider=3").body("data", nullValue());
        assertEquals(1, rows());

        PushApi other = PushApi.newApp(database);
        other.asAdmin().body(sameName).post("/push/certificate").then().body("code", equalTo(200));
    }

    // ---------------------------------------------------------------- bad input

    static Stream<Arguments> invalidBodies() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(invalid(1, "provider", null));
        cases.add(invalid(1, "provider", 0));
        cases.add(invalid(1, "provider", 8));
        cases.add(invalid(1, "provider", -1));
        cases.add(invalid(1, "provider", "1"));
        cases.add(invalid(1, "provider", 1.5));
        cases.add(invalid(2, "environment", 2));
        cases.add(invalid(2, "environment", -1));
        cases.add(invalid(2, "environment", "1"));
        cases.add(invalid(2, "name", null));
        cases.add(invalid(2, "name", ""));
        cases.add(invalid(2, "name", "has space"));
        cases.add(invalid(2, "name", "a/b"));
        cases.add(invalid(2, "name", "n".repeat(65)));
        cases.add(invalid(2, "name", "nul\u0000"));
        cases.add(invalid(2, "name", 7));
        // what each provider's server API needs
        for (int provider = 1; provider <= 7; provider++) {
            for (String field : List.of("app_id", "app_key", "app_secret", "certificate")) {
                if (validBody(provider).containsKey(field)) {
                    cases.add(invalid(provider, field, null));
                    cases.add(invalid(provider, field, ""));
                }
            }
        }
        // formats
        cases.add(invalid(1, "app_id", "com.example.chat"));
        cases.add(invalid(1, "app_id", "abcde12345.com.example.chat"));
        cases.add(invalid(1, "app_key", "KEY123"));
        cases.add(invalid(1, "certificate", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"));
        cases.add(invalid(1, "certificate", RSA_KEY));
        cases.add(invalid(1, "certificate", "not a certificate"));
        cases.add(invalid(1, "certificate", Base64.getEncoder().encodeToString("not a PKCS#12 file".getBytes())));
        cases.add(Arguments.of(1, "certificate", Map.of("certificate", APNS_P12, "app_secret", "wrong-password"),
                "app_secret"));
        cases.add(invalid(3, "app_id", "not a package"));
        cases.add(invalid(3, "app_id", "chat"));
        cases.add(invalid(7, "certificate", "not json"));
        cases.add(invalid(7, "certificate", "[]"));
        cases.add(invalid(7, "certificate", json(Map.of("project_id", "p", "private_key", RSA_KEY))));
        cases.add(invalid(7, "certificate", json(Map.of("client_email", "e", "private_key", RSA_KEY))));
        cases.add(invalid(7, "certificate", json(Map.of("client_email", "e", "project_id", "p"))));
        cases.add(invalid(7, "certificate", json(Map.of("client_email", "e", "project_id", "p", "private_key", 5))));
        cases.add(invalid(7, "certificate", json(Map.of("client_email", "e", "project_id", "p",
                "private_key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))));
        cases.add(invalid(7, "certificate", json(Map.of("client_email", "e", "project_id", "p",
                "private_key", APNS_KEY))));
        // text every field must be: storable, bounded, of the right type
        cases.add(invalid(2, "app_id", "1045\u0000"));
        cases.add(invalid(2, "app_id", "1045 67"));
        cases.add(invalid(2, "app_id", "ü1045"));
        cases.add(invalid(2, "app_id", "1".repeat(257)));
        cases.add(invalid(2, "app_id", 104567890));
        cases.add(invalid(6, "app_key", "k".repeat(257)));
        cases.add(invalid(6, "app_key", "key\u0000"));
        cases.add(invalid(2, "app_secret", "s".repeat(1025)));
        cases.add(invalid(2, "app_secret", "secret\u0000"));
        cases.add(invalid(2, "app_secret", 42));
        cases.add(invalid(2, "app_secret", List.of("secret")));
        cases.add(invalid(2, "certificate", "c".repeat(16 * 1024 + 1)));
        cases.add(invalid(2, "certificate", "é".repeat(8 * 1024 + 1)));
        cases.add(invalid(2, "certificate", "cert\u0000"));
        // message_defaults: only the provider's options, each with a value the provider accepts
        cases.add(invalid(2, "message_defaults", "IM"));
        cases.add(invalid(2, "message_defaults", List.of("IM")));
        cases.add(invalidDefaults(1, Map.of("category", "IM"), "category"));
        cases.add(invalidDefaults(7, Map.of("channel_id", "c"), "channel_id"));
        cases.add(invalidDefaults(2, Map.of("category", "ORDER"), "category"));
        cases.add(invalidDefaults(2, Map.of("category", "PLAY_VOICE"), "category"));
        cases.add(invalidDefaults(2, Map.of("notify_level", 2), "notify_level"));
        cases.add(invalidDefaults(3, Map.of("channel_id", 105411), "channel_id"));
        cases.add(invalidDefaults(3, Map.of("category", "IM"), "category"));
        cases.add(invalidDefaults(6, Map.of("category", "VOIP"), "category"));
        cases.add(invalidDefaults(6, Map.of("notify_level", 4), "notify_level"));
        cases.add(invalidDefaults(5, Map.of("category", "IM", "classification", 0), "category"));
        cases.add(invalidDefaults(5, Map.of("classification", 2), "classification"));
        cases.add(invalidDefaults(5, Map.of("receipt_id", "r".repeat(257)), "receipt_id"));
        cases.add(invalidDefaults(5, Map.of("receipt_id", "r\u0000"), "receipt_id"));
        cases.add(invalidDefaults(4, Map.of("notice_msg_type", "1"), "notice_msg_type"));
        cases.add(invalidDefaults(4, Map.of("notice_msg_type", 1.5), "notice_msg_type"));
        return cases.stream();
    }

    private static Arguments invalid(int provider, String field, Object value) {
        Map<String, Object> change = new HashMap<>();
        change.put(field, value);
        return Arguments.of(provider, field, change, field);
    }

    private static Arguments invalidDefaults(int provider, Map<String, Object> defaults, String option) {
        return Arguments.of(provider, "message_defaults", Map.of("message_defaults", defaults),
                "message_defaults." + option);
    }

    @ParameterizedTest(name = "provider {0}, {1} = {2}: 10002 naming {3}")
    @MethodSource("invalidBodies")
    void invalidFieldsAre10002NamingTheField(int provider, String changed, Map<String, Object> change, String named) {
        Map<String, Object> body = validBody(provider);
        body.putAll(change);
        body.values().removeIf(value -> value == null);
        badParameter(post(body), named);
        assertEquals(0, rows(), "nothing stored");
    }

    @Test
    void aServiceAccountNamingAnotherTokenEndpointIsRefused() {
        for (Object tokenUri : new Object[] {"http://169.254.169.254/computeMetadata/v1/", "http://127.0.0.1:1/token",
                "https://oauth2.googleapis.com/token/", 5}) {
            Map<String, Object> body = validBody(7);
            Map<String, Object> account = new HashMap<>(Map.of("type", "service_account", "project_id", "chat-1234",
                    "client_email", "push@chat-1234.iam.gserviceaccount.com", "private_key", RSA_KEY));
            account.put("token_uri", tokenUri);
            body.put("certificate", json(account));
            post(body).body("code", equalTo(10002)).body("data", nullValue())
                    .body("message", startsWith("certificate.token_uri: must be https://oauth2.googleapis.com/token"));
        }
        assertEquals(0, rows(), "nothing stored");
        Map<String, Object> google = validBody(7);
        google.put("certificate", json(Map.of("type", "service_account", "project_id", "chat-1234",
                "client_email", "push@chat-1234.iam.gserviceaccount.com", "private_key", RSA_KEY,
                "token_uri", "https://oauth2.googleapis.com/token")));
        ok(post(google));
    }

    @Test
    void limitsAreInclusive() {
        Map<String, Object> body = validBody(2);
        body.put("name", "n".repeat(64));
        body.put("app_id", "1".repeat(256));
        body.put("app_key", "k".repeat(256));
        body.put("app_secret", "s".repeat(1024));
        body.put("certificate", "é".repeat(8 * 1024));
        ok(post(body));
        assertCertificate(get("?provider=2"), body);
    }

    @Test
    void malformedBodiesAre10002() {
        for (String body : new String[] {"{\"provider\":", "[1,2]", "", "null", "\"text\"", "{} {}"}) {
            api.asAdmin().body(body).post("/push/certificate").then().statusCode(200)
                    .body("code", equalTo(10002)).body("data", nullValue()).body("message", startsWith("body"));
        }
    }

    @Test
    void getNeedsAKnownProviderAndEnvironment() {
        badParameter(get(""), "provider");
        for (String provider : new String[] {"0", "8", "-1", "x", "1.5", ""}) {
            badParameter(get("?provider=" + provider), "provider");
        }
        for (String environment : new String[] {"2", "-1", "x"}) {
            badParameter(get("?provider=1&environment=" + environment), "environment");
        }
    }

    @Test
    void aUserTokenGets10010() {
        long user = api.newUser();
        api.as(user).body(validBody(2)).post("/push/certificate").then().statusCode(200)
                .body("code", equalTo(10010)).body("data", nullValue());
        assertEquals(0, rows());
        ok(post(validBody(2)));
        api.as(user).get("/push/certificate?provider=2").then().statusCode(200)
                .body("code", equalTo(10010)).body("data", nullValue());
    }
}

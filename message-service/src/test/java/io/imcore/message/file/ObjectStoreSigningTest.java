package io.imcore.message.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The service's own reads are signed with SigV4 alone (ObjectStore.signedGet), not through the SDK's presigner: the
 * URL must be the one the presigner makes for the same object at the same second, in both bucket styles and for
 * keys that need percent-encoding. The tests against s3proxy use path style only.
 */
class ObjectStoreSigningTest {

    private static final String KEY = "app1/2026/12/06/42 photo+1~é.jpg";

    @Test
    void aPathStyleReadIsSignedAsThePresignerSignsIt() {
        assertSignedAsThePresigner("http://127.0.0.1:19100", true);
    }

    @Test
    void aVirtualHostedReadIsSignedAsThePresignerSignsIt() {
        assertSignedAsThePresigner("https://s3.eu-west-1.amazonaws.com", false);
    }

    private static void assertSignedAsThePresigner(String endpoint, boolean pathStyle) {
        ObjectStore store = new ObjectStore(config(endpoint, pathStyle));
        try (S3Presigner presigner = S3Presigner.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.of("eu-west-1"))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("id", "secret")))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(pathStyle).build())
                .build()) {
            for (int attempt = 0; ; attempt++) {
                URI ours = store.signedGet(KEY);
                URI sdks = presigner.presignGetObject(r -> r.signatureDuration(ObjectStore.READ_URL_LIFE)
                        .getObjectRequest(g -> g.bucket("bucket-1").key(KEY))).url().toURI();
                Map<String, String> ourQuery = query(ours);
                Map<String, String> sdkQuery = query(sdks);
                if (!ourQuery.get("X-Amz-Date").equals(sdkQuery.get("X-Amz-Date")) && attempt < 3) {
                    continue; // the two were signed on either side of a second
                }
                assertEquals(sdks.getHost(), ours.getHost());
                assertEquals(sdks.getPort(), ours.getPort());
                assertEquals(sdks.getRawPath(), ours.getRawPath());
                assertTrue(ours.getRawPath().endsWith("/42%20photo%2B1~%C3%A9.jpg"), ours.getRawPath());
                assertEquals(sdkQuery, ourQuery);
                return;
            }
        } catch (java.net.URISyntaxException e) {
            throw new AssertionError(e);
        } finally {
            store.close();
        }
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> out = new TreeMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }

    /** The settings of a store at {@code endpoint}, bucket "bucket-1", region eu-west-1; the rest unused here. */
    private static FileConfig config(String endpoint, boolean pathStyle) {
        Map<String, Object> store = Map.of("endpoint", endpoint, "publicEndpoint", Optional.empty(),
                "region", "eu-west-1", "bucket", "bucket-1", "pathStyle", pathStyle, "accessKey", "id",
                "secretKey", "secret");
        FileConfig.Store storeView = (FileConfig.Store) Proxy.newProxyInstance(FileConfig.class.getClassLoader(),
                new Class<?>[] {FileConfig.Store.class}, (proxy, method, args) -> store.get(method.getName()));
        return (FileConfig) Proxy.newProxyInstance(FileConfig.class.getClassLoader(),
                new Class<?>[] {FileConfig.class}, (proxy, method, args) -> {
                    if (method.getName().equals("store")) {
                        return storeView;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}

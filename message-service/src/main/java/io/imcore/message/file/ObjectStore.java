package io.imcore.message.file;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jboss.logging.Logger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * The object store, spoken as plain S3 (AWS SDK v2, nothing vendor-specific): the bucket and the service's
 * credentials come from {@link FileConfig.Store}. Clients never see those credentials: they get presigned URLs,
 * each for one object, one method and a few minutes (docs/files.md).
 */
@ApplicationScoped
public class ObjectStore {

    private static final Logger LOG = Logger.getLogger(ObjectStore.class);

    /** S3's most keys per DeleteObjects call. */
    private static final int DELETE_BATCH = 1000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Until the store's answer begins (the SDK client's socket timeout). */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    /** The life of the service's own presigned GET, used at once. */
    static final Duration READ_URL_LIFE = Duration.ofMinutes(1);

    private final String bucket;
    private final S3Client client;
    private final S3Presigner presigner;
    /**
     * The reads of completion: a GET signed with SigV4 alone (the presigner's per-call pipeline of endpoint rules
     * and interceptors cost a fifth of a completion's CPU) at the endpoint the service reaches, sent through the
     * JDK's client, which keeps a connection per concurrent read open (the URL-connection client keeps 5) and skips
     * the SDK's per-call pipeline, whose shared locks serialized concurrent completions (docs/files.md).
     */
    private final HttpClient reader;
    private final AwsV4HttpSigner readSigner = AwsV4HttpSigner.create();
    private final AwsBasicCredentials credentials;
    private final String region;
    /** The service-side URL of an object: the endpoint, then the bucket as a path or as a host name. */
    private final URI readBase;
    private final boolean pathStyle;

    /** A URL to PUT one object's bytes to, with the headers the PUT must carry (they are signed). */
    public record PresignedUpload(String url, Map<String, String> headers, Instant expiresAt) {}

    public ObjectStore(FileConfig config) {
        FileConfig.Store store = config.store();
        bucket = store.bucket();
        credentials = AwsBasicCredentials.create(store.accessKey(), store.secretKey());
        region = store.region();
        pathStyle = store.pathStyle();
        URI endpoint = URI.create(store.endpoint());
        readBase = pathStyle ? endpoint : URI.create(endpoint.getScheme() + "://" + bucket + "."
                + endpoint.getRawAuthority() + endpoint.getRawPath());
        var credentialsProvider = StaticCredentialsProvider.create(credentials);
        client = S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.of(store.region()))
                .credentialsProvider(credentialsProvider)
                .forcePathStyle(store.pathStyle())
                // checksums only where S3 requires them: every S3-compatible store understands those requests
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
        presigner = presigner(store, store.publicEndpoint().orElse(store.endpoint()), credentialsProvider);
        // the client's own steps run on its selector thread: its default pool handed every step of a read to
        // another thread; the reading thread only takes the body's buffers from a queue
        reader = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
                .executor(Runnable::run).build();
    }

    private static S3Presigner presigner(FileConfig.Store store, String endpoint,
            StaticCredentialsProvider credentials) {
        return S3Presigner.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.of(store.region()))
                .credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(store.pathStyle()).build())
                .build();
    }

    @PreDestroy
    void close() {
        reader.close();
        presigner.close();
        client.close();
    }

    /**
     * A PUT of exactly {@code size} bytes of {@code contentType} whose SHA-256 is {@code sha256}: the length, the
     * type and the checksum are signed headers, so a store that checks checksums (AWS S3) refuses other bytes.
     */
    public PresignedUpload presignUpload(String key, long size, String contentType, byte[] sha256, Duration expiry) {
        PresignedPutObjectRequest presigned = call(() -> presigner.presignPutObject(r -> r
                .signatureDuration(expiry)
                .putObjectRequest(p -> p.bucket(bucket).key(key).contentLength(size).contentType(contentType)
                        .checksumSHA256(Base64.getEncoder().encodeToString(sha256)))));
        Map<String, String> headers = new TreeMap<>();
        presigned.signedHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) { // the HTTP client sets it from the URL
                headers.put(name, String.join(",", values));
            }
        });
        return new PresignedUpload(presigned.url().toString(), headers, presigned.expiration());
    }

    /** A GET of the object for {@code expiry}. */
    public String presignDownload(String key, Duration expiry) {
        return call(() -> presigner.presignGetObject(r -> r.signatureDuration(expiry)
                .getObjectRequest(g -> g.bucket(bucket).key(key))).url().toString());
    }

    /**
     * The object's bytes as a stream (the caller closes it; closing it before the end drops the connection), empty
     * when there is no such object.
     */
    public Optional<InputStream> open(String key) {
        HttpResponse<InputStream> response;
        try {
            response = reader.send(HttpRequest.newBuilder(signedGet(key)).timeout(READ_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw unavailable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(e);
        }
        if (response.statusCode() == 200) {
            return Optional.of(response.body());
        }
        String error;
        try (InputStream body = response.body()) {
            error = new String(body.readNBytes(1024), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw unavailable(e);
        }
        if (response.statusCode() == 404 && error.contains("<Code>NoSuchKey</Code>")) {
            return Optional.empty(); // nothing uploaded under that key (a missing bucket is the store failing)
        }
        throw unavailable(new IOException("GET " + key + " answered " + response.statusCode() + ": " + error));
    }

    /**
     * The service's own GET of the object for {@link #READ_URL_LIFE}, signed in the query string as the SDK's presigner
     * signs it (ObjectStoreSigningTest compares the two), at the endpoint the service reaches.
     */
    URI signedGet(String key) {
        SdkHttpRequest get = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(readBase)
                .encodedPath(objectPath(key)).build();
        SignedRequest signed = readSigner.sign(r -> r.identity(credentials).request(get)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false) // S3's rules for the canonical path
                .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AwsV4HttpSigner.AuthLocation.QUERY_STRING)
                .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, READ_URL_LIFE));
        return signed.request().getUri();
    }

    /** The object's path under {@link #readBase}: each key segment percent-encoded as S3 signs it. */
    private String objectPath(String key) {
        StringBuilder path = new StringBuilder(readBase.getRawPath().replaceFirst("/+$", ""));
        if (pathStyle) {
            path.append('/').append(SdkHttpUtils.urlEncode(bucket));
        }
        for (String segment : key.split("/", -1)) {
            path.append('/').append(SdkHttpUtils.urlEncode(segment));
        }
        return path.toString();
    }

    public void put(String key, byte[] bytes, String contentType) {
        call(() -> client.putObject(r -> r.bucket(bucket).key(key).contentType(contentType),
                RequestBody.fromBytes(bytes)));
    }

    /** Deletes the objects; a key without an object is no error (S3 deletes are idempotent). */
    public void delete(List<String> keys) {
        for (int from = 0; from < keys.size(); from += DELETE_BATCH) {
            List<ObjectIdentifier> batch = new ArrayList<>();
            for (String key : keys.subList(from, Math.min(keys.size(), from + DELETE_BATCH))) {
                batch.add(ObjectIdentifier.builder().key(key).build());
            }
            call(() -> client.deleteObjects(r -> r.bucket(bucket)
                    .delete(Delete.builder().objects(batch).quiet(true).build())));
        }
    }

    private static <T> T call(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (SdkClientException | SdkServiceException e) {
            throw unavailable(e);
        }
    }

    /** The store unreachable or failing is 50003 (retry later), as a database would be; the cause is logged. */
    static ApiException unavailable(Exception cause) {
        LOG.warn("object store call failed", cause);
        return new ApiException(ErrorCode.UNAVAILABLE, "the file store is unavailable; safe to retry");
    }
}

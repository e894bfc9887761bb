package io.imcore.pushworker.channel.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Small helpers the form/JSON-over-HTTPS adapters (Huawei, Xiaomi, OPPO, vivo, Meizu) share: one {@link HttpClient}
 * per adapter built from {@link ChannelSettings}, form encoding, Retry-After, URL joining and text truncation;
 * {@link #all} also serves APNs and FCM.
 */
public final class VendorHttp {

    public static final ObjectMapper JSON = new ObjectMapper();

    private VendorHttp() {}

    /**
     * An HTTP client with the channel's connect timeout, trusting the JDK's CAs plus the optional extra one; its
     * answers reach {@link ProviderAnswers} when a test send listens.
     */
    public static HttpClient client(ChannelSettings settings) {
        HttpClient.Builder builder = builder(settings);
        settings.trustCertificate().ifPresent(pem -> builder.sslContext(sslContext(pem)));
        return new RecordingHttpClient(builder.build());
    }

    /**
     * The same client trusting the JDK's CAs only, for the channels whose trust-certificate setting is documented as
     * not used (vivo, Meizu: public CAs, and plain-HTTP simulators) and for svcpush (message-service).
     */
    public static HttpClient jdkTrustClient(ChannelSettings settings) {
        return new RecordingHttpClient(builder(settings).build());
    }

    private static HttpClient.Builder builder(ChannelSettings settings) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                // the client's own steps run on its selector thread, not handed to a pool of its own one by one
                // (docs/push-worker.md "Providers' clients")
                .executor(Runnable::run);
    }

    /** {@code a=b&c=d}, UTF-8 URL-encoded; null values are left out. */
    public static String form(Map<String, String> fields) {
        StringJoiner out = new StringJoiner("&");
        fields.forEach((k, v) -> {
            if (v != null) {
                out.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        return out.toString();
    }

    /** {@code base} with {@code path} appended (no double slash). */
    public static URI resolve(URI base, String path) {
        String b = base.toString();
        if (b.endsWith("/")) {
            b = b.substring(0, b.length() - 1);
        }
        return URI.create(b + path);
    }

    /**
     * The endpoint for a separate auth URL setting: used as it is when it has a path, else {@code defaultPath} is
     * appended (so both {@code https://host} and {@code https://host/oauth2/v3/token} work).
     */
    public static URI endpoint(URI configured, String defaultPath) {
        String path = configured.getPath();
        return path == null || path.isEmpty() || path.equals("/") ? resolve(configured, defaultPath) : configured;
    }

    /** The Retry-After header in seconds, or null. */
    public static Duration retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("retry-after").map(v -> {
            try {
                return Duration.ofSeconds(Long.parseLong(v.trim()));
            } catch (NumberFormatException e) {
                return null;
            }
        }).orElse(null);
    }

    /** The body as JSON, or null when it is not JSON. */
    public static JsonNode json(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** At most {@code max} code points (a provider counting "characters", emoji as one). */
    public static String truncate(String text, int max) {
        if (text == null) {
            return null;
        }
        if (text.length() <= max) {
            return text;
        }
        int count = text.codePointCount(0, text.length());
        return count <= max ? text : text.substring(0, text.offsetByCodePoints(0, max));
    }

    /** n copies of one outcome in a mutable list. */
    public static List<Outcome> all(int n, Outcome outcome) {
        return new ArrayList<>(Collections.nCopies(n, outcome));
    }

    /** True when the intent is a URI (scheme:...), false for an action or class name. */
    public static boolean isUri(String intent) {
        int colon = intent.indexOf(':');
        return colon > 0 && intent.substring(0, colon).chars().allMatch(c -> Character.isLetterOrDigit(c)
                || c == '+' || c == '-' || c == '.');
    }

    private static SSLContext sslContext(Path pem) {
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            KeyStore extra = KeyStore.getInstance(KeyStore.getDefaultType());
            extra.load(null, null);
            try (InputStream in = Files.newInputStream(pem)) {
                int i = 0;
                for (Certificate c : factory.generateCertificates(in)) {
                    extra.setCertificateEntry("extra-" + i++, c);
                }
            }
            X509TrustManager jdk = trustManager(null);
            X509TrustManager added = trustManager(extra);
            X509TrustManager both = new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                    jdk.checkClientTrusted(chain, authType);
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                    try {
                        jdk.checkServerTrusted(chain, authType);
                    } catch (CertificateException e) {
                        added.checkServerTrusted(chain, authType);
                    }
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    X509Certificate[] a = jdk.getAcceptedIssuers();
                    X509Certificate[] b = added.getAcceptedIssuers();
                    X509Certificate[] out = Arrays.copyOf(a, a.length + b.length);
                    System.arraycopy(b, 0, out, a.length, b.length);
                    return out;
                }
            };
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {both}, null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException("cannot load the trust certificate " + pem, e);
        }
    }

    private static X509TrustManager trustManager(KeyStore store) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                return x;
            }
        }
        throw new IllegalStateException("no X509TrustManager");
    }
}

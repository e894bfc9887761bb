package io.imcore.push.certificate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.api.StorableText;
import io.imcore.common.context.CallerChecks;
import io.imcore.pushcontract.CertificateTestSend;
import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The certificate test send: push-service checks the request and that the app has the certificate, then hands it to
 * push-worker's internal endpoint, which owns the channel adapters and calls the provider once. Not a push task.
 */
@ApplicationScoped
public class CertificateTester {

    /** The per-app quota of test sends (docs/throttling.md). */
    public static final String QUOTA = "push-certificate-test";
    static final int MAX_TOKEN = 512;
    static final int MAX_TEXT = 256;
    static final String DEFAULT_TITLE = "Test";
    static final String DEFAULT_BODY = "Test notification from imcore";

    private final CertificateStore certificates;
    private final ObjectMapper json;
    private final URI workerEndpoint;
    private final String internalKey;
    private final Duration timeout;
    private final HttpClient http;

    public CertificateTester(CertificateStore certificates, ObjectMapper json,
            @ConfigProperty(name = "im.push.worker-url") URI workerUrl,
            @ConfigProperty(name = "im.push.certificate-test.timeout") Duration timeout,
            @ConfigProperty(name = "im.internal-key") Optional<String> internalKey) {
        this.certificates = certificates;
        this.json = json;
        this.workerEndpoint = URI.create(workerUrl.toString().replaceFirst("/+$", "") + CertificateTestSend.WORKER_PATH);
        this.internalKey = internalKey.orElse("");
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3))
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    public CertificateTestSend.Answer test(String appId, CertificateTestRequest body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        if (body.provider() == null) {
            throw ApiException.badParameter("provider", "required");
        }
        Channel channel = CertificateService.channel(body.provider());
        int environment = body.environment() == null
                ? CertificateService.PRODUCTION : CertificateService.environment(body.environment());
        String token = body.deviceToken();
        if (token == null || token.isEmpty()) {
            throw ApiException.badParameter("device_token", "required");
        }
        if (token.length() > MAX_TOKEN) {
            throw ApiException.badParameter("device_token", "at most " + MAX_TOKEN + " characters");
        }
        StorableText.check("device_token", token);
        String title = text("title", body.title(), DEFAULT_TITLE);
        String text = text("body", body.body(), DEFAULT_BODY);
        if (certificates.find(appId, channel, environment).isEmpty()) {
            // the same 10002 as a bind naming a certificate the app does not have (docs/push-devices.md)
            throw ApiException.badParameter("provider", "the app has no certificate for provider " + body.provider()
                    + " and environment " + environment);
        }
        return forward(new CertificateTestSend.Request(appId, body.provider(), environment, token, title, text));
    }

    private CertificateTestSend.Answer forward(CertificateTestSend.Request request) {
        JsonNode answer;
        CompletableFuture<HttpResponse<String>> call = null;
        try {
            call = http.sendAsync(HttpRequest.newBuilder(workerEndpoint)
                    .header("Content-Type", "application/json")
                    .header(CallerChecks.INTERNAL_KEY, internalKey)
                    .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(request)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            // one bound for the whole exchange, connecting included: the answer comes before the gateway's 9 s
            answer = json.readTree(call.get(timeout.toNanos(), TimeUnit.NANOSECONDS).body());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new ApiException(ErrorCode.UNAVAILABLE, "push-worker did not answer the test send within "
                    + timeout.toMillis() + " ms; the provider may still deliver it");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw unavailable("interrupted");
        } catch (ExecutionException e) {
            throw unavailable(e.getCause().toString());
        } catch (IOException e) {
            throw unavailable(e.toString());
        }
        int code = answer.path("code").asInt(-1);
        if (code == ErrorCode.OK.code()) {
            try {
                return json.treeToValue(answer.get("data"), CertificateTestSend.Answer.class);
            } catch (IOException e) {
                throw unavailable("unreadable answer: " + e.getMessage());
            }
        }
        if (code == ErrorCode.BAD_PARAMETER.code()) { // e.g. the certificate was deleted since the check above
            throw new ApiException(ErrorCode.BAD_PARAMETER, answer.path("message").asText());
        }
        throw unavailable(code + " " + answer.path("message").asText());
    }

    private static ApiException unavailable(String why) {
        return new ApiException(ErrorCode.UNAVAILABLE, "push-worker did not answer the test send: " + why);
    }

    private static String text(String field, String value, String byDefault) {
        if (value == null || value.isBlank()) {
            return byDefault;
        }
        StorableText.check(field, value);
        if (value.length() > MAX_TEXT) {
            throw ApiException.badParameter(field, "at most " + MAX_TEXT + " characters");
        }
        return value;
    }
}

package io.imcore.common.context;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.ErrorCode;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Asks auth-service directly about an app or users that the auth view does not know yet. The view trails
 * auth-service by the outbox and consumer lag, and a user registered a moment ago must be able to call and to
 * receive at once. Off when {@code im.auth-service.url} is empty.
 */
@ApplicationScoped
public class IdentityClient {

    private static final Logger LOG = Logger.getLogger(IdentityClient.class);

    private final Optional<String> baseUrl;
    private final Optional<String> internalKey;
    private final ObjectMapper mapper;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public IdentityClient(ObjectMapper mapper,
            @ConfigProperty(name = "im.auth-service.url") Optional<String> baseUrl,
            @ConfigProperty(name = "im.internal-key") Optional<String> internalKey) {
        this.mapper = mapper;
        this.baseUrl = baseUrl.map(url -> url.replaceAll("/+$", "")).filter(url -> !url.isBlank());
        this.internalKey = internalKey;
    }

    public boolean enabled() {
        return baseUrl.isPresent();
    }

    /** auth-service's answer, or a 50003 when it cannot be reached. */
    public IdentitySnapshot fetch(String appId, Collection<Long> userIds) {
        String ids = userIds.stream().map(String::valueOf).collect(Collectors.joining(","));
        URI uri = URI.create(baseUrl.orElseThrow() + "/internal/identity?app_id="
                + URLEncoder.encode(appId, StandardCharsets.UTF_8) + "&user_ids=" + ids);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(3))
                .header(CallerChecks.INTERNAL_KEY, internalKey.orElse("")).GET().build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            JavaType type = mapper.getTypeFactory().constructParametricType(ApiResponse.class, IdentitySnapshot.class);
            ApiResponse<IdentitySnapshot> answer = mapper.readValue(response.body(), type);
            if (answer.code() != ErrorCode.OK.code()) {
                throw new IllegalStateException("code " + answer.code() + ": " + answer.message());
            }
            return answer.data();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(ErrorCode.UNAVAILABLE, "auth-service lookup interrupted");
        } catch (Exception e) {
            LOG.warnf("auth-service lookup failed: %s", e.toString());
            throw new ApiException(ErrorCode.UNAVAILABLE, "auth-service is unavailable; safe to retry");
        }
    }
}

package io.imcore.push.certificate;

import static io.imcore.common.api.QueryParams.optionalLong;
import static io.imcore.common.api.QueryParams.requiredLong;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.StorableText;
import io.imcore.common.store.Database;
import io.imcore.push.notify.MessageOptions;
import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** Provider credentials per app (decisions.md section 5, docs/push-certificates.md). */
@ApplicationScoped
public class CertificateService {

    static final int PRODUCTION = 1;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final int MAX_ID = 256;
    private static final int MAX_SECRET = 1024;
    private static final int MAX_CERTIFICATE_BYTES = 16 * 1024;

    private final CertificateStore certificates;
    private final ProviderFields providerFields;

    public CertificateService(CertificateStore certificates, ProviderFields providerFields) {
        this.certificates = certificates;
        this.providerFields = providerFields;
    }

    /** Inserts or replaces the certificate of (app, provider, environment); the name is unique within the app. */
    public boolean upsert(String appId, CertificateRequest body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        if (body.provider() == null) {
            throw ApiException.badParameter("provider", "required");
        }
        Channel channel = channel(body.provider());
        int environment = body.environment() == null ? PRODUCTION : environment(body.environment());
        String name = body.name();
        if (name == null || name.isEmpty()) {
            throw ApiException.badParameter("name", "required");
        }
        if (!NAME.matcher(name).matches()) {
            throw ApiException.badParameter("name", "at most 64 letters, digits, '_', '-' or '.'");
        }
        String providerAppId = identifier("app_id", body.appId());
        String appKey = identifier("app_key", body.appKey());
        String appSecret = limited("app_secret", body.appSecret(), MAX_SECRET);
        String certificate = storable("certificate", body.certificate());
        if (certificate.getBytes(StandardCharsets.UTF_8).length > MAX_CERTIFICATE_BYTES) {
            throw ApiException.badParameter("certificate", "at most " + MAX_CERTIFICATE_BYTES + " bytes");
        }
        providerFields.check(channel, providerAppId, appKey, appSecret, certificate);
        ObjectNode messageDefaults = MessageOptions.ofDefaults(channel, body.messageDefaults());
        Certificate row = new Certificate(channel, environment, name, providerAppId, appKey, appSecret, certificate,
                messageDefaults);
        try {
            certificates.upsert(appId, row);
        } catch (RuntimeException e) {
            if (Database.isUniqueViolation(e)) {
                // the key (app, provider, environment) is upserted, so only unique (app_id, name) can conflict
                throw ApiException.badParameter("name", "already used by another provider or environment of this app");
            }
            throw e;
        }
        return true;
    }

    /** The certificate of the provider and environment, or null when the app has none. */
    public CertificateView find(String appId, String providerParam, String environmentParam) {
        Channel channel = channel(requiredLong("provider", providerParam, 1, 7));
        int environment = (int) optionalLong("environment", environmentParam, PRODUCTION, 0, 1);
        return certificates.find(appId, channel, environment)
                .map(CertificateView::of)
                .orElse(null);
    }

    /** The channel of a provider number: 10002 naming `provider` when it is none. */
    static Channel channel(long provider) {
        return Channel.fromProvider((int) provider)
                .orElseThrow(() -> ApiException.badParameter("provider", "must be between 1 and 7"));
    }

    /** 0 (development) or 1 (production): 10002 naming `environment` otherwise. */
    static int environment(int value) {
        if (value != 0 && value != 1) {
            throw ApiException.badParameter("environment", "must be 0 (development) or 1 (production)");
        }
        return value;
    }

    /** Optional text as stored: absent is empty. */
    private static String storable(String field, String value) {
        StorableText.check(field, value);
        return value == null ? "" : value;
    }

    private static String limited(String field, String value, int maxLength) {
        String text = storable(field, value);
        if (text.length() > maxLength) {
            throw ApiException.badParameter(field, "at most " + maxLength + " characters");
        }
        return text;
    }

    /** A provider-side id or key: printable ASCII without spaces, as the providers issue them. */
    private static String identifier(String field, String value) {
        String text = limited(field, value, MAX_ID);
        if (!text.chars().allMatch(ch -> ch > ' ' && ch < 0x7f)) {
            throw ApiException.badParameter(field, "printable ASCII without spaces required");
        }
        return text;
    }
}

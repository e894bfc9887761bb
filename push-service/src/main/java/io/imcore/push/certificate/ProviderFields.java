package io.imcore.push.certificate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.ApiException;
import io.imcore.common.security.Keys;
import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collections;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Which of app_id, app_key, app_secret and certificate each provider's server API needs, and their formats
 * (docs/push-certificates.md). Credentials are checked as far as possible without calling the provider, so that a
 * pasted wrong file is refused at upload rather than failing every push later.
 */
@ApplicationScoped
class ProviderFields {

    private static final String PEM_PRIVATE_KEY = "-----BEGIN PRIVATE KEY-----";
    /** Apple's App ID: the 10-character Team ID, a dot, the bundle id (the APNs topic). */
    private static final Pattern APPLE_APP_ID = Pattern.compile("[A-Z0-9]{10}\\.[A-Za-z0-9.-]+");
    private static final Pattern APPLE_KEY_ID = Pattern.compile("[A-Z0-9]{10}");
    private static final Pattern ANDROID_PACKAGE = Pattern.compile("[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+");

    private final ObjectMapper json;
    private final String cloudTokenUri;

    ProviderFields(ObjectMapper json,
            @ConfigProperty(name = "im.push.certificate-cloud-token-uri") String cloudTokenUri) {
        this.json = json;
        this.cloudTokenUri = cloudTokenUri;
    }

    /** Refuses, with 10002 naming the field, what the provider's server API could not work with (absent = empty). */
    void check(Channel channel, String appId, String appKey, String appSecret, String certificate) {
        switch (channel) {
            case APNS -> checkApns(appId, appKey, appSecret, certificate);
            case FCM -> checkFcmServiceAccount(certificate);
            case HUAWEI, MEIZU -> {
                required(channel, "app_id", appId);
                required(channel, "app_secret", appSecret);
            }
            case XIAOMI -> {
                required(channel, "app_id", appId);
                if (!ANDROID_PACKAGE.matcher(appId).matches()) {
                    throw ApiException.badParameter("app_id", "must be the Android package name (com.example.app)");
                }
                required(channel, "app_secret", appSecret);
            }
            case OPPO -> {
                required(channel, "app_key", appKey);
                required(channel, "app_secret", appSecret);
            }
            case VIVO -> {
                required(channel, "app_id", appId);
                required(channel, "app_key", appKey);
                required(channel, "app_secret", appSecret);
            }
        }
    }

    /** Token auth (.p8 key, app_key = key id) or certificate auth (base64 PKCS#12, app_secret = its password). */
    private void checkApns(String appId, String appKey, String appSecret, String certificate) {
        required(Channel.APNS, "app_id", appId);
        if (!APPLE_APP_ID.matcher(appId).matches()) {
            throw ApiException.badParameter("app_id", "must be the Apple App ID: <Team ID>.<bundle id>");
        }
        required(Channel.APNS, "certificate", certificate);
        if (certificate.strip().startsWith(PEM_PRIVATE_KEY)) {
            required(Channel.APNS, "app_key", appKey);
            if (!APPLE_KEY_ID.matcher(appKey).matches()) {
                throw ApiException.badParameter("app_key", "must be the 10-character APNs key id");
            }
            checkEcPrivateKey(certificate);
        } else {
            checkPkcs12(certificate, appSecret);
        }
    }

    private static void checkEcPrivateKey(String pem) {
        try {
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", ""));
            KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw ApiException.badParameter("certificate", "not an APNs .p8 key (PEM PKCS#8 EC private key)");
        }
    }

    private static void checkPkcs12(String base64, String password) {
        KeyStore store;
        try {
            store = pkcs12(base64, password);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw ApiException.badParameter("app_secret", "is not the password of the PKCS#12 certificate");
            }
            throw notApnsCertificate();
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw notApnsCertificate();
        }
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    return;
                }
            }
        } catch (GeneralSecurityException e) {
            throw notApnsCertificate();
        }
        throw ApiException.badParameter("certificate", "the PKCS#12 file holds no private key");
    }

    /** A base64 PKCS#12 file opened with its password (also what CertificateExpiry reads notAfter from). */
    static KeyStore pkcs12(String base64, String password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(new ByteArrayInputStream(Base64.getMimeDecoder().decode(base64)), password.toCharArray());
        return store;
    }

    private static ApiException notApnsCertificate() {
        return ApiException.badParameter("certificate",
                "not an APNs .p8 key (PEM) nor a base64 PKCS#12 certificate");
    }

    private void checkFcmServiceAccount(String certificate) {
        required(Channel.FCM, "certificate", certificate);
        JsonNode account;
        try {
            account = json.readTree(certificate);
        } catch (IOException e) {
            account = null;
        }
        if (account == null || !account.isObject()) {
            throw ApiException.badParameter("certificate", "must be the service-account JSON file");
        }
        for (String field : new String[] {"project_id", "client_email", "private_key"}) {
            JsonNode value = account.get(field);
            if (value == null || !value.isTextual() || value.asText().isBlank()) {
                throw ApiException.badParameter("certificate", "service-account JSON without " + field);
            }
        }
        // push-worker asks its configured token endpoint only; a JSON naming another one is not Google's file (or
        // an attempt to make push-worker post the signed grant, and echo the answer, to an address of one's choice)
        JsonNode tokenUri = account.get("token_uri");
        if (tokenUri != null && !(tokenUri.isTextual() && tokenUri.asText().equals(cloudTokenUri))) {
            throw ApiException.badParameter("certificate.token_uri", "must be " + cloudTokenUri
                    + " (the token endpoint push-worker uses) or absent");
        }
        try {
            Keys.privateKey(Optional.of(account.get("private_key").asText()), Optional.empty());
        } catch (RuntimeException e) {
            throw ApiException.badParameter("certificate", "service-account private_key is not an RSA private key");
        }
    }

    private static void required(Channel channel, String field, String value) {
        if (value.isEmpty()) {
            throw ApiException.badParameter(field, "required for provider " + channel.provider() + " ("
                    + channel.wireName() + ")");
        }
    }
}

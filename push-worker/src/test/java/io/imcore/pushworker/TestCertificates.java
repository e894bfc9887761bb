package io.imcore.pushworker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.CertificateSecrets.Column;
import io.imcore.pushcontract.CertificateSecrets;
import io.imcore.pushcontract.Channel;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Base64;

/**
 * An app's certificates for every OS channel (environment 1, and 0 for ios) with freshly generated keys, sealed
 * under the test certificate key as push-service seals them. The simulators accept any well-formed credentials
 * of apps not registered with them.
 */
public final class TestCertificates {

    /** The test value of im.push.certificate-key (application.properties %test, and the crash test's processes). */
    public static final String KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

    private TestCertificates() {}

    public static void insertAll(Connection c, String appId) throws SQLException {
        String p8;
        String serviceAccount;
        try {
            KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
            ec.initialize(new ECGenParameterSpec("secp256r1"));
            p8 = pem(ec.generateKeyPair().getPrivate().getEncoded());
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048);
            ObjectNode json = new ObjectMapper().createObjectNode()
                    .put("type", "service_account").put("project_id", "demo-project").put("private_key_id", "k1")
                    .put("private_key", pem(rsa.generateKeyPair().getPrivate().getEncoded()))
                    .put("client_email", "push@demo-project.iam.gserviceaccount.com").put("client_id", "1")
                    .put("token_uri", "https://oauth2.googleapis.com/token");
            serviceAccount = json.toString();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        insert(c, appId, Channel.APNS, 1, "ABCDE12345.com.example.chat", "KEY1234567", "", p8);
        insert(c, appId, Channel.APNS, 0, "ABCDE12345.com.example.chat", "KEY1234567", "", p8);
        insert(c, appId, Channel.FCM, 1, "", "", "", serviceAccount);
        insert(c, appId, Channel.HUAWEI, 1, "10086", "", "huawei-secret", "");
        insert(c, appId, Channel.XIAOMI, 1, "com.example.chat", "", "xiaomi-secret", "");
        insert(c, appId, Channel.OPPO, 1, "", "oppo-key", "oppo-master-secret", "");
        insert(c, appId, Channel.VIVO, 1, "10010", "vivo-key", "vivo-secret", "");
        insert(c, appId, Channel.MEIZU, 1, "110000", "", "meizu-secret", "");
    }

    private static void insert(Connection c, String appId, Channel channel, int environment, String providerAppId,
            String appKey, String appSecret, String certificate) throws SQLException {
        CertificateSecrets secrets = new CertificateSecrets(KEY);
        int provider = channel.provider();
        try (PreparedStatement ps = c.prepareStatement("insert into push_certificates (app_id, provider,"
                + " environment, name, provider_app_id, app_key, app_secret_enc, certificate_enc)"
                + " values (?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, appId);
            ps.setInt(2, provider);
            ps.setInt(3, environment);
            ps.setString(4, "cert-" + channel.wireName() + (environment == 0 ? "-dev" : ""));
            ps.setString(5, providerAppId);
            ps.setString(6, appKey);
            ps.setBytes(7, secrets.seal(appSecret, appId, provider, environment, Column.APP_SECRET));
            ps.setBytes(8, secrets.seal(certificate, appId, provider, environment, Column.CERTIFICATE));
            ps.executeUpdate();
        }
    }

    private static String pem(byte[] der) {
        return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END PRIVATE KEY-----\n";
    }
}

package io.imcore.push.certificate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.push.Channel;
import io.imcore.common.push.CertificateSecrets;
import io.imcore.common.push.CertificateSecrets.Column;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * {@code push_certificates}: app_secret and certificate are sealed by {@link CertificateSecrets} with the current
 * certificate key, each bound to its row and column.
 */
@Startup // a missing or malformed key set stops the service at startup, not at the first certificate call
@ApplicationScoped
public class CertificateStore {

    private final CertificateSecrets secrets;
    private final ObjectMapper json;

    public CertificateStore(CertificateSecrets secrets, ObjectMapper json) {
        this.secrets = secrets;
        this.json = json;
    }

    /** Inserts or replaces the app's certificate for the channel and environment. */
    public void upsert(Connection c, String appId, Certificate certificate) throws SQLException {
        int provider = certificate.channel().provider();
        int environment = certificate.environment();
        try (PreparedStatement ps = c.prepareStatement("insert into push_certificates (app_id, provider, environment,"
                + " name, provider_app_id, app_key, app_secret_enc, certificate_enc, message_defaults)"
                + " values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)"
                + " on conflict (app_id, provider, environment) do update set name = excluded.name,"
                + " provider_app_id = excluded.provider_app_id, app_key = excluded.app_key,"
                + " app_secret_enc = excluded.app_secret_enc, certificate_enc = excluded.certificate_enc,"
                + " message_defaults = excluded.message_defaults, updated_at = now()")) {
            ps.setString(1, appId);
            ps.setInt(2, provider);
            ps.setInt(3, environment);
            ps.setString(4, certificate.name());
            ps.setString(5, certificate.appId());
            ps.setString(6, certificate.appKey());
            ps.setBytes(7, secrets.seal(certificate.appSecret(), appId, provider, environment, Column.APP_SECRET));
            ps.setBytes(8, secrets.seal(certificate.certificate(), appId, provider, environment,
                    Column.CERTIFICATE));
            ps.setString(9, certificate.messageDefaults().toString());
            ps.executeUpdate();
        }
    }

    /** The app's credentials for the channel and environment, decrypted (what an adapter signs its calls with). */
    public Optional<Certificate> find(Connection c, String appId, Channel channel, int environment)
            throws SQLException {
        int provider = channel.provider();
        try (PreparedStatement ps = c.prepareStatement("select name, provider_app_id, app_key, app_secret_enc,"
                + " certificate_enc, message_defaults::text from push_certificates"
                + " where app_id = ? and provider = ? and environment = ?")) {
            ps.setString(1, appId);
            ps.setInt(2, provider);
            ps.setInt(3, environment);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Certificate(channel, environment, rs.getString(1), rs.getString(2),
                        rs.getString(3), secrets.open(rs.getBytes(4), appId, provider, environment, Column.APP_SECRET),
                        secrets.open(rs.getBytes(5), appId, provider, environment, Column.CERTIFICATE),
                        messageDefaults(rs.getString(6))));
            }
        }
    }

    /** The stored message_defaults: a JSON object, as only MessageOptions.ofDefaults output is written. */
    private ObjectNode messageDefaults(String stored) {
        try {
            return (ObjectNode) json.readTree(stored);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("push_certificates.message_defaults is not JSON", e);
        }
    }

    /** Which channel and environment the app's certificate of this name is for (a token binding's notifier_name). */
    public Optional<CertificateRef> findByName(Connection c, String appId, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select provider, environment from push_certificates where app_id = ? and name = ?")) {
            ps.setString(1, appId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new CertificateRef(Channel.fromProvider(rs.getInt(1)).orElseThrow(), rs.getInt(2),
                        name));
            }
        }
    }
}

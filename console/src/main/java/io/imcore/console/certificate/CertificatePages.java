package io.imcore.console.certificate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleMessages;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.FormErrors;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Certificates per provider and environment (docs/push-certificates.md): a masked view, upload or replace with the
 * API's validation message beside the field it names, and a test send through push-service's
 * {@code POST /push/certificate/test}; the app's delivery-receipt callback URLs (push-service's
 * {@code GET /push/receipt_key}) and a confirmed rotation of their key (docs/api-decisions.md "Receipt keys").
 */
@Path("/certificates")
@Produces(MediaType.TEXT_HTML)
public class CertificatePages extends ServicePages {

    /** api.md 4.5.1 provider codes, in the order of the provider table of docs/push-certificates.md. */
    static final List<Map<String, String>> PROVIDERS = List.of(
            Map.of("code", "1", "label", "1 APNs"), Map.of("code", "7", "label", "7 FCM"),
            Map.of("code", "2", "label", "2 Huawei"), Map.of("code", "3", "label", "3 Xiaomi"),
            Map.of("code", "4", "label", "4 Meizu"), Map.of("code", "5", "label", "5 vivo"),
            Map.of("code", "6", "label", "6 OPPO"));
    static final List<String> FIELDS = List.of("provider", "environment", "name", "app_id", "app_key", "app_secret",
            "certificate", "message_defaults");
    private static final int TEST_ANSWER_LIMIT = 1024;
    /** How long before its expiry a certificate is shown with a warning: the ImcoreCertificateExpiring alert's too. */
    static final Duration EXPIRY_WARNING = Duration.ofDays(30);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    @Inject
    ObjectMapper json;
    @Inject
    Template certificates;
    @Inject
    Language language;

    @GET
    public Response page(@Context HttpHeaders headers) {
        ConsoleSession session = guard.requireAdmin(headers);
        return Response.ok(render(session, emptyForm(), FormErrors.none(FIELDS), null, testForm("3", "1", ""),
                null)).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response upload(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("provider") String provider, @FormParam("environment") String environment,
            @FormParam("name") String name, @FormParam("app_id") String appId, @FormParam("app_key") String appKey,
            @FormParam("app_secret") String appSecret, @FormParam("certificate") String certificate,
            @FormParam("message_defaults") String messageDefaults) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("provider", Pages.text(provider));
        form.put("environment", Pages.text(environment));
        form.put("name", Pages.text(name));
        form.put("app_id", Pages.text(appId));
        form.put("app_key", Pages.text(appKey));
        form.put("message_defaults", Pages.text(messageDefaults));
        Map<String, String> errors = FormErrors.none(FIELDS);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("provider", parseInt(form.get("provider")));
        body.put("environment", parseInt(form.get("environment")));
        body.put("name", form.get("name"));
        body.put("app_id", form.get("app_id"));
        body.put("app_key", form.get("app_key"));
        body.put("app_secret", appSecret == null ? "" : appSecret);
        body.put("certificate", certificate == null ? "" : certificate);
        if (!form.get("message_defaults").isEmpty()) {
            try {
                body.put("message_defaults", json.readTree(form.get("message_defaults")));
            } catch (JsonProcessingException e) {
                errors.put("message_defaults", language.msg().cert_not_json());
                return Response.status(400).entity(render(session, form, errors, null,
                        testForm("3", "1", ""), null)).build();
            }
        }
        Answer answer = backend.post(Service.PUSH, "/push/certificate", session.credentials(), body);
        if (answer.ok()) {
            return Response.ok(render(session, emptyForm(), errors, language.msg().cert_saved(form.get("name")),
                    testForm(form.get("provider"), form.get("environment"), ""), null)).build();
        }
        String key = FormErrors.keyOf(answer, errors);
        errors.put(key, answer.error());
        return Response.status(400).entity(render(session, form, errors, null,
                testForm("3", "1", ""), null)).build();
    }

    @POST
    @Path("test")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response testSend(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("provider") String provider, @FormParam("environment") String environment,
            @FormParam("device_token") String deviceToken, @FormParam("title") String title,
            @FormParam("body") String text) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        Map<String, String> testForm =
                testForm(Pages.text(provider), Pages.text(environment), Pages.text(deviceToken));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("provider", parseInt(testForm.get("provider")));
        body.put("environment", parseInt(testForm.get("environment")));
        body.put("device_token", testForm.get("device_token"));
        body.put("title", Pages.text(title));
        body.put("body", Pages.text(text));
        Answer answer = backend.post(Service.PUSH, "/push/certificate/test", session.credentials(), body);
        Map<String, String> result = new LinkedHashMap<>(); // every key present: Qute renders strictly
        for (String key : List.of("error", "outcome", "reason", "providerStatus", "providerCode", "providerMessage",
                "elapsedMs")) {
            result.put(key, "");
        }
        if (answer.ok() && answer.data() != null) {
            JsonNode data = answer.data();
            result.put("outcome", data.path("outcome").asText());
            result.put("reason", data.path("reason").asText("-"));
            result.put("providerStatus", data.path("provider_status").asText("-"));
            result.put("providerCode", data.path("provider_code").asText("-"));
            String message = data.path("provider_message").asText("");
            result.put("providerMessage", message.substring(0, Math.min(message.length(), TEST_ANSWER_LIMIT)));
            result.put("elapsedMs", data.path("elapsed_ms").asText());
        } else {
            result.put("error", language.msg().not_sent(answer.error()));
        }
        return Response.ok(render(session, emptyForm(), FormErrors.none(FIELDS), null, testForm, result)).build();
    }

    /**
     * Rotate the receipt key in two submits: the first (no {@code confirm}) only asks, since the old key is refused at
     * once and every provider console needs the new URL (a server-side step: the policy forbids inline script).
     */
    @POST
    @Path("receipt-key")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response rotateReceiptKey(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("confirm") String confirm) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        if (!"yes".equals(confirm)) {
            return Response.ok(render(session, emptyForm(), FormErrors.none(FIELDS), null, testForm("3", "1", ""), null)
                    .data("confirmReceiptRotate", true)).build();
        }
        Answer answer = backend.post(Service.PUSH, "/push/receipt_key/rotate", session.credentials(), null);
        session.setNotice(answer.ok() ? language.msg().cert_receipt_rotated()
                : language.msg().cert_receipt_not_rotated(answer.error()));
        return Pages.redirect("/certificates");
    }

    private TemplateInstance render(ConsoleSession session, Map<String, String> form, Map<String, String> errors,
            String uploadResult, Map<String, String> testForm, Map<String, String> testResult) {
        ConsoleMessages msg = language.msg();
        List<Map<String, String>> rows = new ArrayList<>();
        String loadError = null;
        for (Map<String, String> provider : PROVIDERS) {
            for (String environment : List.of("1", "0")) {
                Answer answer = backend.get(Service.PUSH, "/push/certificate?provider=" + provider.get("code")
                        + "&environment=" + environment, session.credentials());
                if (!answer.ok()) {
                    loadError = msg.cert_not_read(answer.error());
                } else if (answer.data() != null) {
                    rows.add(maskedRow(provider.get("code"), provider.get("label"), environment, answer.data(),
                            Instant.now(), msg));
                }
            }
        }
        List<Map<String, String>> expiring = rows.stream().filter(row -> !row.get("expiryWarning").isEmpty())
                .toList();
        // push-service makes the app's key on its first read, so the section never starts empty
        Answer receipt = backend.get(Service.PUSH, "/push/receipt_key", session.credentials());
        JsonNode receiptKey = receipt.ok() ? receipt.data() : null;
        return Pages.page(certificates, session).data("certificates", rows).data("expiring", expiring)
                .data("loadError", loadError)
                .data("receiptError", receiptKey == null ? msg.cert_receipt_not_read(receipt.error()) : null)
                .data("receiptKey", receiptKey == null ? null : mask(receiptKey.path("key").asText(""), msg))
                .data("receiptCallbacks", receiptKey == null ? List.of() : callbacks(receiptKey))
                .data("providers", PROVIDERS).data("form", form).data("errors", errors)
                .data("uploadResult", uploadResult).data("testForm", testForm).data("testResult", testResult);
    }

    /** Per channel, the URL the admin enters in that provider's console: it carries the key, so it is shown whole. */
    private static List<Map<String, String>> callbacks(JsonNode receiptKey) {
        List<Map<String, String>> callbacks = new ArrayList<>();
        receiptKey.path("callbacks").properties().forEach(callback -> callbacks.add(
                Map.of("channel", callback.getKey(), "url", callback.getValue().asText())));
        return callbacks;
    }

    /**
     * Secrets never reach the browser: app_secret and certificate are shown by length and last characters. A
     * credential that expires (push-service's {@code expires_at}) has its date, and a warning from 30 days ahead.
     */
    static Map<String, String> maskedRow(String code, String provider, String environment, JsonNode certificate,
            Instant now, ConsoleMessages msg) {
        Map<String, String> row = new LinkedHashMap<>();
        row.put("id", code + "-" + environment);
        row.put("provider", provider);
        row.put("environment", environment.equals("1") ? msg.env_production() : msg.env_development());
        row.put("name", certificate.path("name").asText(""));
        row.put("appId", certificate.path("app_id").asText(""));
        row.put("appKey", certificate.path("app_key").asText(""));
        row.put("appSecret", mask(certificate.path("app_secret").asText(""), msg));
        row.put("certificate", mask(certificate.path("certificate").asText(""), msg));
        JsonNode expiresAt = certificate.path("expires_at");
        Instant expiry = expiresAt.isNumber() ? Instant.ofEpochSecond(expiresAt.asLong()) : null;
        row.put("expires", expiry == null ? msg.cert_no_expiry() : DAY.format(expiry));
        row.put("expiryWarning", expiry == null ? "" : expiryWarning(expiry, now, msg));
        return row;
    }

    /** "expired", "expires in N days" within {@link #EXPIRY_WARNING}, else empty. */
    static String expiryWarning(Instant expiresAt, Instant now, ConsoleMessages msg) {
        if (!expiresAt.isAfter(now)) {
            return msg.cert_expired();
        }
        Duration left = Duration.between(now, expiresAt);
        if (left.compareTo(EXPIRY_WARNING) > 0) {
            return "";
        }
        long days = left.toDays();
        return days == 0 ? msg.cert_expires_today() : days == 1 ? msg.cert_expires_in_one_day()
                : msg.cert_expires_in(days);
    }

    static String mask(String secret, ConsoleMessages msg) {
        if (secret.isEmpty()) {
            return "-";
        }
        String tail = secret.length() >= 16 ? secret.strip().substring(secret.strip().length() - 4) : "";
        return "•••• " + (tail.isEmpty() ? "" : tail + " ") + msg.cert_masked_length(secret.length());
    }

    private static Map<String, String> testForm(String provider, String environment, String deviceToken) {
        return Map.of("provider", provider, "environment", environment, "device_token", deviceToken);
    }

    private static Map<String, String> emptyForm() {
        Map<String, String> form = new LinkedHashMap<>();
        FIELDS.forEach(field -> form.put(field, ""));
        form.put("provider", "3");
        form.put("environment", "1");
        return form;
    }

    /** A number when the text is one; otherwise the text itself, so the API names the field in its refusal. */
    private static Object parseInt(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return text;
        }
    }
}

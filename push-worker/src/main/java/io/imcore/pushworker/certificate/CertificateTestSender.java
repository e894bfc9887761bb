package io.imcore.pushworker.certificate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.pushcontract.CertificateTestSend;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushworker.AdapterRegistry;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.ProviderAnswers;
import io.imcore.pushworker.channel.http.ProviderAnswers.Listened;
import io.imcore.pushworker.channel.http.VendorHttp;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * One notification to one token with an app's certificate, through the channel's adapter as the dispatcher calls it,
 * answered with what the provider said. Not a push task: no task row, no counters, no retry, nothing unbound.
 */
@ApplicationScoped
public class CertificateTestSender {

    private final AdapterRegistry adapters;
    private final CredentialCache credentials;

    public CertificateTestSender(AdapterRegistry adapters, CredentialCache credentials) {
        this.adapters = adapters;
        this.credentials = credentials;
    }

    public CertificateTestSend.Answer send(CertificateTestSend.Request request) {
        Channel channel = Channel.fromProvider(request.provider())
                .orElseThrow(() -> ApiException.badParameter("provider", "must be between 1 and 7"));
        Credentials certificate = credentials.reload(request.appId(), channel, request.environment())
                .orElseThrow(() -> ApiException.badParameter("provider", "the app has no certificate for provider "
                        + request.provider() + " and environment " + request.environment()));
        ObjectNode message = JsonNodeFactory.instance.objectNode()
                .put("type", "text").put("title", request.title()).put("body", request.body());
        // task id 0: no task exists; adapters use it only for collapse/notify ids and receipt parameters
        Notification notification = new Notification(0, request.appId(), message);
        Delivery delivery = new Delivery(new PushBatch.Target(0, 0, 0, request.deviceToken(), certificate.name(),
                request.environment(), null), request.deviceToken(), null);
        long started = System.nanoTime();
        Listened<List<Outcome>> sent = ProviderAnswers.listen(
                () -> adapters.adapter(channel).send(certificate, notification, List.of(delivery)));
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        Outcome outcome = sent.result().get(0);
        ProviderAnswers.Answer answer = sent.answer();
        return new CertificateTestSend.Answer(switch (outcome.kind()) {
            case ACCEPTED -> "sent";
            case REJECTED -> "rejected";
            case FAILED, RETRY -> "failed";
        }, outcome.reason(), answer == null ? null : answer.status(), answer == null ? null : resultCode(answer.body()),
                answer == null ? null : answer.body(), elapsedMs);
    }

    /** The providers' JSON answers carry their result as {@code code} (Xiaomi, Huawei, OPPO, Meizu) or {@code result} (vivo). */
    static String resultCode(String body) {
        JsonNode json = VendorHttp.json(body);
        if (json == null || !json.isObject()) {
            return null;
        }
        JsonNode code = json.hasNonNull("code") ? json.get("code") : json.get("result");
        return code == null || code.isNull() || code.isContainerNode() ? null : code.asText();
    }
}

package io.imcore.pushcontract;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The delivery-receipt callback URL of one app on one channel, {@code <endpoint>/<app_id>?key=<receipt key>}
 * (docs/push-worker.md "received"): the URL push-worker asks the providers to call, and the one push-service shows
 * the app's admin for the providers' consoles. {@code endpoint} is push-service's {@code .../push/receipt/<channel>}.
 */
public final class ReceiptCallback {

    private ReceiptCallback() {}

    public static URI url(String endpoint, String appId, String key) {
        String base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        // app ids are [a-z2-9] and keys base64url: encoding only guards the URL's shape
        return URI.create(base + "/" + encode(appId) + "?key=" + encode(key));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}

package io.imcore.pushworker.channel.meizu;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/** Meizu requests written by hand (not by our adapter), posted to the simulator: golden and refused requests. */
final class MeizuForms {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private MeizuForms() {}

    /** appId, pushIds and messageJson with their sign (PushAPI README "接口签名规范"). */
    static Map<String, String> signed(String appId, String pushIds, String messageJson, String appSecret) {
        Map<String, String> params = new TreeMap<>(Map.of("appId", appId, "pushIds", pushIds,
                "messageJson", messageJson));
        params.put("sign", MeizuAdapter.sign(params, appSecret));
        return params;
    }

    /** Posts the form to {@code base + path} and returns Meizu's answer ({@code code}, {@code value} ...). */
    static JsonNode post(URI base, String path, Map<String, String> form) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(VendorHttp.resolve(base, path))
                .header("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(VendorHttp.form(form), StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("HTTP " + response.statusCode() + ": " + response.body());
        }
        return AdapterTestSupport.JSON.readTree(response.body());
    }
}

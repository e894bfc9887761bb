package io.imcore.message;

import io.imcore.common.store.Database;
import io.imcore.testing.TestApp;
import io.restassured.response.ValidatableResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helper: a {@link TestApp} with message-service's calls. */
public final class MessageApi extends TestApp {

    private MessageApi(Database database, String appId) {
        super(database, appId);
    }

    public static MessageApi newApp(Database database) {
        return new MessageApi(database, registerApp(database));
    }

    public static Map<String, Object> text(String content, List<Long> targets) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("content_type", 0);
        body.put("content", content);
        body.put("targets", targets);
        body.put("type", 1);
        return body;
    }

    public static Map<String, Object> toGroup(String content, long groupId) {
        Map<String, Object> body = text(content, List.of(groupId));
        body.put("type", 2);
        return body;
    }

    public ValidatableResponse send(long from, Map<String, Object> body) {
        return as(from).body(body).post("/message/send").then().statusCode(200);
    }

    /** Sends a text and expects success. */
    public void sendText(long from, long to, String content) {
        send(from, text(content, List.of(to))).body("code", org.hamcrest.Matchers.equalTo(200));
    }

    public ValidatableResponse page(long viewer, long opposite, long start, int limit) {
        return as(viewer).queryParam("opposite_id", opposite).queryParam("msg_id_start", start)
                .queryParam("limit", limit).get("/message/conversation").then().statusCode(200);
    }

    public ValidatableResponse unread(long viewer) {
        return as(viewer).get("/message/unread").then().statusCode(200);
    }

    public long createGroup(long owner, List<Long> members) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "group of " + owner);
        body.put("user_list", members);
        Number id = as(owner).body(body).post("/group/create").then().statusCode(200)
                .body("code", org.hamcrest.Matchers.equalTo(200)).extract().path("data.group_id");
        return id.longValue();
    }
}

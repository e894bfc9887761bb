package io.imcore.message.file;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.ObjectStoreResource;
import io.imcore.testing.TestObjectStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * Files end to end through the real S3 protocol (s3proxy, {@link TestObjectStore}): upload, the client's PUT to the
 * presigned URL, completion's checks, a message carrying the file and the recipient's download; and each refusal.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@QuarkusTestResource(value = ObjectStoreResource.class, parallel = true)
class FileMessagesTest extends AppWithUsers {

    @Inject
    FileService fileService;

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void imageTravelsFromSenderToRecipientWithItsThumbnail() throws Exception {
        byte[] png = png(640, 480);
        long fileId = uploadAndPut(alice, "beach.png", "image/png", png);
        api.as(alice).body(Map.of("file_id", fileId)).post("/file/complete").then()
                .body("code", equalTo(200)).body("data.type", equalTo("image"))
                .body("data.content_type", equalTo("image/png")).body("data.width", equalTo(640))
                .body("data.height", equalTo(480));

        api.send(alice, image(fileId, List.of(bob))).body("code", equalTo(200));

        String stored = api.page(bob, alice, 0, 20).extract().path("data.messages[0].attachment");
        JsonNode attachment = JSON.readTree(stored);
        assertEquals(fileId, attachment.get("file_id").asLong());
        assertEquals("image", attachment.get("type").asText());
        assertEquals("beach.png", attachment.get("name").asText());
        assertEquals(png.length, attachment.get("size").asLong());
        assertEquals(640, attachment.get("width").asInt());

        JsonPath link = api.as(bob).queryParam("file_id", fileId).get("/file/download").then()
                .body("code", equalTo(200)).body("data.url", notNullValue())
                .body("data.thumbnail_url", notNullValue()).extract().jsonPath();
        assertArrayEquals(png, get(link.getString("data.url")));
        BufferedImage thumbnail = ImageIO.read(new ByteArrayInputStream(get(link.getString("data.thumbnail_url"))));
        assertEquals(320, thumbnail.getWidth());
        assertEquals(240, thumbnail.getHeight());
    }

    @Test
    void aFileOfNoSignatureKeepsItsDeclaredTypeAndHasNoThumbnail() throws Exception {
        byte[] text = "notes of the meeting".getBytes(StandardCharsets.UTF_8);
        long fileId = uploadAndPut(alice, "notes.txt", "text/plain", text);
        api.as(alice).body(Map.of("file_id", fileId)).post("/file/complete").then()
                .body("code", equalTo(200)).body("data.type", equalTo("file"))
                .body("data.content_type", equalTo("text/plain"));
        Map<String, Object> body = MessageApi.text("", List.of(bob));
        body.put("content_type", 4);
        body.put("attachment", "{\"file_id\": " + fileId + "}");
        api.send(alice, body).body("code", equalTo(200));
        api.as(bob).queryParam("file_id", fileId).get("/file/download").then()
                .body("code", equalTo(200)).body("data.thumbnail_url", nullValue());
    }

    @Test
    void theAdminListsAUsersFilesNewestFirstWithTheMessageCarryingThem() throws Exception {
        long image = uploadAndPut(alice, "listed.png", "image/png", png(64, 48));
        api.as(alice).body(Map.of("file_id", image)).post("/file/complete").then().body("code", equalTo(200));
        api.send(alice, image(image, List.of(bob))).body("code", equalTo(200));
        Number carrier = api.page(bob, alice, 0, 1).extract().path("data.messages[0].msg_id");
        byte[] notes = "draft".getBytes(StandardCharsets.UTF_8);
        long pending = upload(alice, "draft.txt", "text/plain", notes.length, sha256(notes));

        JsonPath first = api.asAdmin().queryParam("user_id", alice).queryParam("limit", 1).get("/file/list").then()
                .body("code", equalTo(200)).extract().jsonPath();
        assertEquals(List.of(pending), first.getList("data.files.file_id", Long.class));
        assertEquals("uploading", first.getString("data.files[0].state"));
        assertEquals(notes.length, first.getLong("data.files[0].size"));
        assertNull(first.get("data.files[0].msg_id"));
        JsonPath second = api.asAdmin().queryParam("user_id", alice).queryParam("limit", 1)
                .queryParam("before", first.getLong("data.next_before")).get("/file/list").then()
                .body("code", equalTo(200)).extract().jsonPath();
        assertEquals(image, second.getLong("data.files[0].file_id"));
        assertEquals("listed.png", second.getString("data.files[0].name"));
        assertEquals("completed", second.getString("data.files[0].state"));
        assertEquals("image", second.getString("data.files[0].type"));
        assertEquals(64, second.getInt("data.files[0].width"));
        assertTrue(second.getBoolean("data.files[0].thumbnail"));
        assertEquals(carrier.longValue(), second.getLong("data.files[0].msg_id"));

        api.asAdmin().queryParam("user_id", bob).get("/file/list").then().body("code", equalTo(200))
                .body("data.files.file_id", not(hasItem(image)));
        api.as(alice).queryParam("user_id", alice).get("/file/list").then().body("code", not(equalTo(200)));
        api.asAdmin().get("/file/list").then().body("code", equalTo(10002))
                .body("message", startsWith("user_id"));
    }

    @Test
    void aCompletionBeforeThePutLeavesTheUploadAsItWas() throws Exception {
        byte[] png = png(12, 12);
        long fileId = upload(alice, "early.png", "image/png", png.length, sha256(png));
        api.as(alice).body(Map.of("file_id", fileId)).post("/file/complete").then().body("code", equalTo(13005))
                .body("message", equalTo("file_id: nothing uploaded yet for file " + fileId));
        put(alice, fileId, png);
        api.as(alice).body(Map.of("file_id", fileId)).post("/file/complete").then().body("code", equalTo(200))
                .body("data.width", equalTo(12));
    }

    @Test
    void wrongHashIsRefusedAndTheObjectDeleted() throws Exception {
        byte[] png = png(10, 10);
        long fileId = upload(alice, "a.png", "image/png", png.length, sha256("other bytes".getBytes()));
        put(alice, fileId, png);
        assertTrue(objectExists(fileId), "the PUT stored the object");

        api.as(alice).body(Map.of("file_id", fileId)).post("/file/complete").then()
                .body("code", equalTo(13004)).body("message", equalTo("sha256: the uploaded bytes have another hash"));
        assertFalse(objectExists(fileId));
        api.as(alice).body(Map.of("file_id", fileId)).post("/file/complete").then().body("code", equalTo(13001));
    }

    @Test
    void bytesOfAnotherTypeThanDeclaredAreRefused() throws Exception {
        byte[] pdf = "%PDF-1.7\n%fake document\n".getBytes(StandardCharsets.US_ASCII);
        long fileId = uploadAndPut(alice, "photo.jpg", "image/jpeg", pdf);
        api.as(alice).body(Map.of("file_id", fileId)).post("/file/complete").then()
                .body("code", equalTo(13003))
                .body("message", equalTo("content_type: declared image/jpeg, the bytes are application/pdf"));
        assertFalse(objectExists(fileId));
    }

    @Test
    void aFileOverTheAppsLimitForItsTypeIsRefusedBeforeTheUpload() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "film.mp4");
        body.put("content_type", "video/mp4");
        body.put("size", 209_715_201L);
        body.put("sha256", sha256(new byte[1]));
        api.as(alice).body(body).post("/file/upload").then().body("code", equalTo(13002))
                .body("message", equalTo("size: video files of this app are at most 209715200 bytes"));
        body.put("size", 0);
        api.as(alice).body(body).post("/file/upload").then().body("code", equalTo(10002))
                .body("message", equalTo("size: a positive number of bytes"));
    }

    @Test
    void uploadsAndCompletionsOverTheAppsFileQuotaGet10015() {
        given().header("platform-key", "test-platform-key").header("app_id", api.appId).contentType(ContentType.JSON)
                .body(Map.of("quota", FileResource.QUOTA, "limit", 1, "period_seconds", 3600, "burst", 2))
                .put("/message/quota").then().body("code", equalTo(200));
        try {
            upload(alice, "a.png", "image/png", 10, sha256(new byte[10]));
            api.as(alice).body(Map.of("file_id", 1)).post("/file/complete").then().body("code", not(equalTo(10015)));
            api.as(alice).body(Map.of("file_id", 1)).post("/file/complete").then().body("code", equalTo(10015));
            api.as(bob).body(Map.of("name", "b.png", "content_type", "image/png", "size", 10,
                    "sha256", sha256(new byte[10]))).post("/file/upload").then().body("code", equalTo(10015));
        } finally {
            given().header("platform-key", "test-platform-key").header("app_id", api.appId)
                    .delete("/message/quota?quota=" + FileResource.QUOTA).then().body("code", equalTo(200));
        }
    }

    @Test
    void onlyMembersOfTheConversationAtTheTimeDownload() throws Exception {
        long fileId = completedImage(alice);
        long group = api.createGroup(alice, List.of(bob));
        Map<String, Object> toGroup = image(fileId, List.of(group));
        toGroup.put("type", 2);
        api.send(alice, toGroup).body("code", equalTo(200));
        // carol joins after the message: its seq is below her floor
        api.as(alice).body(Map.of("group_id", group, "user_list", List.of(carol))).post("/group/invite").then()
                .body("code", equalTo(200));

        api.as(bob).queryParam("file_id", fileId).get("/file/download").then().body("code", equalTo(200));
        api.as(carol).queryParam("file_id", fileId).get("/file/download").then()
                .body("code", equalTo(13006))
                .body("message", equalTo("file_id: not in a conversation that received file " + fileId));
    }

    @Test
    void anotherAppsFileIdDoesNotExistThere() throws Exception {
        long fileId = completedImage(alice);
        MessageApi other = MessageApi.newApp(database);
        long stranger = other.newUser();
        long peer = other.newUser();
        other.send(stranger, image(fileId, List.of(peer))).body("code", equalTo(13001))
                .body("message", equalTo("file_id: no file " + fileId));
        other.as(stranger).queryParam("file_id", fileId).get("/file/download").then().body("code", equalTo(13001));
    }

    @Test
    void aSendNeedsACompletedFileOfTheSender() throws Exception {
        byte[] png = png(8, 8);
        long pending = uploadAndPut(alice, "a.png", "image/png", png);
        api.send(alice, image(pending, List.of(bob))).body("code", equalTo(13005))
                .body("message", equalTo("attachment: file " + pending + " is not completed (POST /file/complete)"));

        long alices = completedImage(alice);
        api.send(bob, image(alices, List.of(carol))).body("code", equalTo(13006))
                .body("message", equalTo("attachment: file " + alices + " was uploaded by another user"));

        Map<String, Object> asVideo = image(alices, List.of(bob));
        asVideo.put("content_type", 3);
        api.send(alice, asVideo).body("code", equalTo(10002));
        api.page(bob, alice, 0, 20).body("data.messages_size", equalTo(0));
    }

    @Test
    void uploadsNeverCompletedAreSweptWithTheirObjectsAfterTheRetention() throws Exception {
        long stale = uploadAndPut(alice, "old.png", "image/png", png(4, 4));
        long fresh = uploadAndPut(alice, "new.png", "image/png", png(4, 4));
        long done = completedImage(alice);
        database.autoCommit(c -> c.createStatement().executeUpdate(
                "update files set created_at = now() - interval '25 hours' where file_id in (" + stale + ", " + done
                        + ")"));

        fileService.sweepIncomplete();

        assertFalse(objectExists(stale));
        api.as(alice).body(Map.of("file_id", stale)).post("/file/complete").then().body("code", equalTo(13001));
        assertTrue(objectExists(fresh));
        assertTrue(objectExists(done));
        api.as(alice).queryParam("file_id", done).get("/file/download").then().body("code", equalTo(200));
    }

    private long completedImage(long owner) throws Exception {
        long fileId = uploadAndPut(owner, "photo.png", "image/png", png(32, 32));
        api.as(owner).body(Map.of("file_id", fileId)).post("/file/complete").then().body("code", equalTo(200));
        return fileId;
    }

    private static Map<String, Object> image(long fileId, List<Long> targets) {
        Map<String, Object> body = MessageApi.text("", targets);
        body.put("content_type", 1);
        body.put("attachment", "{\"file_id\":" + fileId + "}");
        return body;
    }

    private long uploadAndPut(long owner, String name, String contentType, byte[] bytes) throws Exception {
        long fileId = upload(owner, name, contentType, bytes.length, sha256(bytes));
        put(owner, fileId, bytes);
        return fileId;
    }

    private final Map<Long, JsonPath> tickets = new LinkedHashMap<>();

    private long upload(long owner, String name, String contentType, long size, String sha256) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("content_type", contentType);
        body.put("size", size);
        body.put("sha256", sha256);
        JsonPath ticket = api.as(owner).body(body).post("/file/upload").then().body("code", equalTo(200))
                .body("data.upload_url", notNullValue()).body("data.expires_at", notNullValue())
                .extract().jsonPath();
        long fileId = ticket.getLong("data.file_id");
        tickets.put(fileId, ticket);
        return fileId;
    }

    /** The client's PUT: the bytes to the presigned URL with the signed headers (Content-Length from the body). */
    private void put(long owner, long fileId, byte[] bytes) throws Exception {
        JsonPath ticket = tickets.get(fileId);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ticket.getString("data.upload_url")))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes));
        Map<String, String> headers = ticket.getMap("data.upload_headers");
        headers.forEach((name, value) -> {
            if (!name.equalsIgnoreCase("content-length")) {
                request.header(name, value);
            }
        });
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
    }

    private static byte[] get(String url) throws Exception {
        HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        return response.body();
    }

    private boolean objectExists(long fileId) {
        return Files.exists(TestObjectStore.get().bucketDirectory().resolve(api.appId).resolve(String.valueOf(fileId)));
    }

    private static byte[] png(int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setColor(Color.ORANGE);
        g.fillRect(0, 0, width, height / 2);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.imcore.simulators.apns;

import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PfxOptions;
import io.vertx.core.net.TrustOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.X509TrustManager;

/**
 * The ios provider: APNs' provider API ({@code POST /3/device/<token>} over HTTP/2 with TLS and ALPN h2).
 *
 * <p>At start it makes a self-signed server certificate for 127.0.0.1/localhost with the JDK's {@code keytool} and
 * writes it to {@code <workDir>/apns-ca.pem}, the file clients trust (im.push.worker.channel.ios.trust-certificate);
 * a work dir that already holds one (a restart) keeps it.
 * Client certificates are requested, not required, so both token auth (ES256 JWT in {@code authorization}) and
 * certificate auth work. Apps registered with {@code POST /_sim/apps} ({@link #registerApp}) make it verify JWT
 * signatures with the registered key and client certificates against the registered ones; with none registered any
 * well-formed JWT or client certificate is accepted. docs/channels/apns.md lists what it checks.
 */
public class ApnsSimulator extends ProviderSimulator {

    /** A token starting with this (it also starts with {@link Faults#INVALID_PREFIX}) is answered 410 Unregistered. */
    public static final String UNREGISTERED_PREFIX = "invalid-unregistered";

    static final int MAX_PAYLOAD = 4096;
    private static final long JWT_MAX_AGE_SECONDS = 3600;
    private static final String STORE_PASSWORD = "simulator";

    /** Registered token-auth keys by Key ID. */
    private final Map<String, SigningKey> keys = new ConcurrentHashMap<>();
    /** Registered client certificates (DER, base64) → the app's topic. */
    private final Map<String, String> clientCertificates = new ConcurrentHashMap<>();
    /** JWTs already verified (clients reuse one for up to an hour): JWT → its iat (epoch seconds). */
    private final Map<String, Long> verifiedJwts = new ConcurrentHashMap<>();
    private final AtomicLong invalidatedAt = new AtomicLong(System.currentTimeMillis());

    private record SigningKey(String teamId, String topic, PublicKey publicKey) {}

    @Override
    public String channel() {
        return "ios";
    }

    @Override
    protected HttpServerOptions serverOptions(Path workDir) throws Exception {
        Files.createDirectories(workDir);
        Path store = workDir.resolve("apns-server.p12");
        Path pem = workDir.resolve("apns-ca.pem");
        if (!Files.exists(store) || !Files.exists(pem)) { // kept across restarts: clients keep trusting it
            generateCertificate(store, pem);
        }
        return new HttpServerOptions()
                .setSsl(true)
                .setUseAlpn(true)
                .setKeyCertOptions(new PfxOptions().setPath(store.toString()).setPassword(STORE_PASSWORD))
                .setClientAuth(ClientAuth.REQUEST)
                .setTrustOptions(TrustOptions.wrap(new AcceptAnyClient()))
                .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(1000));
    }

    private static void generateCertificate(Path store, Path pem) throws Exception {
        Files.deleteIfExists(store);
        Files.deleteIfExists(pem);
        keytool("-genkeypair", "-alias", "apns", "-keyalg", "EC", "-groupname", "secp256r1",
                "-sigalg", "SHA256withECDSA", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "3650", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "apns", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD, "-file", pem.toString());
    }

    private static void keytool(String... args) throws Exception {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        String[] command = new String[args.length + 1];
        command[0] = keytool;
        System.arraycopy(args, 0, command, 1, args.length);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + new String(output, StandardCharsets.UTF_8));
        }
    }

    @Override
    protected void routes(Router router) {
        router.post("/3/device/:token").handler(this::push);
    }

    /**
     * Registers an app's credentials with our certificate fields (docs/push-certificates.md): a PEM PKCS#8 EC key
     * (token auth: app_id {@code <TeamID>.<bundle id>}, app_key the Key ID) or a base64 PKCS#12 opened by
     * app_secret (certificate auth). From then on JWTs must be signed by a registered key and client certificates
     * must be registered ones.
     */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) throws Exception {
        int dot = appId == null ? -1 : appId.indexOf('.');
        String topic = dot < 0 ? appId : appId.substring(dot + 1);
        if (certificate != null && certificate.contains("PRIVATE KEY-----")) {
            String teamId = dot < 0 ? appId : appId.substring(0, dot);
            byte[] der = Base64.getMimeDecoder().decode(certificate.replaceAll("-----[A-Z ]+-----", ""));
            ECPrivateKey key = (ECPrivateKey) KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
            keys.put(appKey, new SigningKey(teamId, topic, publicKeyOf(key)));
        } else {
            KeyStore store = KeyStore.getInstance("PKCS12");
            char[] password = appSecret == null ? new char[0] : appSecret.toCharArray();
            store.load(new ByteArrayInputStream(Base64.getMimeDecoder().decode(certificate)), password);
            for (Enumeration<String> aliases = store.aliases(); aliases.hasMoreElements(); ) {
                Certificate cert = store.getCertificate(aliases.nextElement());
                if (cert != null) {
                    clientCertificates.put(Base64.getEncoder().encodeToString(cert.getEncoded()), topic);
                }
            }
        }
        verifiedJwts.clear();
    }

    @Override
    public void reset() {
        super.reset();
        keys.clear();
        clientCertificates.clear();
        verifiedJwts.clear();
    }

    private void push(RoutingContext ctx) {
        String token = ctx.pathParam("token");
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.AUTH) {
            error(ctx, 403, "InvalidProviderToken");
            return;
        }
        if (fault == Faults.Kind.TRANSIENT) {
            error(ctx, 429, "TooManyRequests");
            return;
        }
        String topic = ctx.request().getHeader("apns-topic");
        String authorization = ctx.request().getHeader("authorization");
        String authError = authorization != null ? checkJwt(authorization) : checkClientCertificate(ctx, topic);
        if (authError != null) {
            error(ctx, 403, authError);
            return;
        }
        if (authorization != null && (topic == null || topic.isEmpty())) {
            error(ctx, 400, "MissingTopic");
            return;
        }
        String headerError = checkHeaders(ctx);
        if (headerError != null) {
            error(ctx, 400, headerError);
            return;
        }
        byte[] body = ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        if (body.length == 0) {
            error(ctx, 400, "PayloadEmpty");
            return;
        }
        if (body.length > MAX_PAYLOAD) {
            error(ctx, 413, "PayloadTooLarge");
            return;
        }
        if (token.startsWith(UNREGISTERED_PREFIX)) {
            long timestamp = invalidatedAt.get();
            later(() -> json(ctx, 410, new JsonObject().put("reason", "Unregistered").put("timestamp", timestamp)));
            return;
        }
        if (Faults.isInvalid(token)) {
            error(ctx, 400, "BadDeviceToken");
            return;
        }
        if (faults().failsTransiently(token)) {
            error(ctx, 429, "TooManyRequests");
            return;
        }
        recorder().delivered(token, new String(body, java.nio.charset.StandardCharsets.UTF_8));
        String apnsId = ctx.request().getHeader("apns-id");
        String id = apnsId != null ? apnsId : UUID.randomUUID().toString();
        later(() -> ctx.response().setStatusCode(200).putHeader("apns-id", id).end());
    }

    private String checkHeaders(RoutingContext ctx) {
        String pushType = ctx.request().getHeader("apns-push-type");
        if (pushType != null && !List.of("alert", "background", "location", "voip", "complication", "fileprovider",
                "mdm", "liveactivity", "pushtotalk").contains(pushType)) {
            return "InvalidPushType";
        }
        String priority = ctx.request().getHeader("apns-priority");
        if (priority != null && !priority.equals("10") && !priority.equals("5") && !priority.equals("1")) {
            return "BadPriority";
        }
        if ("background".equals(pushType) && "10".equals(priority)) {
            return "BadPriority"; // background pushes must use priority 5
        }
        String collapseId = ctx.request().getHeader("apns-collapse-id");
        if (collapseId != null && collapseId.getBytes(StandardCharsets.UTF_8).length > 64) {
            return "BadCollapseId";
        }
        String expiration = ctx.request().getHeader("apns-expiration");
        if (expiration != null && !expiration.matches("\\d{1,19}")) {
            return "BadExpirationDate";
        }
        String apnsId = ctx.request().getHeader("apns-id");
        if (apnsId != null) {
            try {
                UUID.fromString(apnsId);
            } catch (IllegalArgumentException e) {
                return "BadMessageId";
            }
        }
        return null;
    }

    /** Null when the bearer JWT is acceptable, else the APNs reason. */
    private String checkJwt(String authorization) {
        if (!authorization.regionMatches(true, 0, "bearer ", 0, 7)) {
            return "InvalidProviderToken";
        }
        String jwt = authorization.substring(7).trim();
        long now = System.currentTimeMillis() / 1000;
        Long iat = verifiedJwts.get(jwt);
        if (iat == null) {
            String error;
            try {
                error = verifyJwt(jwt);
            } catch (RuntimeException e) {
                error = "InvalidProviderToken";
            }
            if (error != null) {
                return error;
            }
            iat = iatOf(jwt);
            if (verifiedJwts.size() > 10_000) {
                verifiedJwts.clear();
            }
            verifiedJwts.put(jwt, iat);
        }
        return now - iat > JWT_MAX_AGE_SECONDS ? "ExpiredProviderToken" : null;
    }

    private static long iatOf(String jwt) {
        String[] parts = jwt.split("\\.");
        return new JsonObject(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8))
                .getLong("iat");
    }

    private String verifyJwt(String jwt) throws RuntimeException {
        String[] parts = jwt.split("\\.");
        if (parts.length != 3) {
            return "InvalidProviderToken";
        }
        Base64.Decoder decoder = Base64.getUrlDecoder();
        JsonObject header = new JsonObject(new String(decoder.decode(parts[0]), StandardCharsets.UTF_8));
        JsonObject claims = new JsonObject(new String(decoder.decode(parts[1]), StandardCharsets.UTF_8));
        String kid = header.getString("kid");
        String iss = claims.getString("iss");
        Object iat = claims.getValue("iat");
        if (!"ES256".equals(header.getString("alg")) || kid == null || iss == null || !(iat instanceof Number)) {
            return "InvalidProviderToken";
        }
        byte[] signature = decoder.decode(parts[2]);
        // JOSE ES256 is R||S (64 bytes); APNs also takes the DER form some clients (Pushy) send
        boolean raw = signature.length == 64;
        if (!raw && (signature.length < 8 || signature[0] != 0x30)) {
            return "InvalidProviderToken";
        }
        if (!keys.isEmpty()) {
            SigningKey key = keys.get(kid);
            if (key == null || !key.teamId().equals(iss)) {
                return "InvalidProviderToken";
            }
            try {
                Signature verifier = Signature.getInstance(raw ? "SHA256withECDSAinP1363Format" : "SHA256withECDSA");
                verifier.initVerify(key.publicKey());
                verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
                if (!verifier.verify(signature)) {
                    return "InvalidProviderToken";
                }
            } catch (Exception e) {
                return "InvalidProviderToken";
            }
        }
        return null;
    }

    private String checkClientCertificate(RoutingContext ctx, String topic) {
        List<Certificate> chain;
        try {
            chain = ctx.request().connection().peerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            chain = null;
        } catch (RuntimeException e) {
            chain = null;
        }
        if (chain == null || chain.isEmpty()) {
            return "MissingProviderToken";
        }
        if (clientCertificates.isEmpty()) {
            return null;
        }
        try {
            String registeredTopic =
                    clientCertificates.get(Base64.getEncoder().encodeToString(chain.get(0).getEncoded()));
            if (registeredTopic == null) {
                return "BadCertificate";
            }
            return topic == null || topic.equals(registeredTopic) ? null : "TopicDisallowed";
        } catch (Exception e) {
            return "BadCertificate";
        }
    }

    private void error(RoutingContext ctx, int status, String reason) {
        reply(ctx, status, new JsonObject().put("reason", reason));
    }

    /** The public point of an EC private key: s·G on its curve (affine double-and-add; done once per key). */
    static PublicKey publicKeyOf(ECPrivateKey key) throws Exception {
        ECParameterSpec params = key.getParams();
        BigInteger p = ((ECFieldFp) params.getCurve().getField()).getP();
        BigInteger a = params.getCurve().getA();
        ECPoint result = ECPoint.POINT_INFINITY;
        ECPoint addend = params.getGenerator();
        BigInteger s = key.getS();
        for (int i = 0; i < s.bitLength(); i++) {
            if (s.testBit(i)) {
                result = add(result, addend, p, a);
            }
            addend = add(addend, addend, p, a);
        }
        return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(result, params));
    }

    private static ECPoint add(ECPoint first, ECPoint second, BigInteger p, BigInteger a) {
        if (first.equals(ECPoint.POINT_INFINITY)) {
            return second;
        }
        if (second.equals(ECPoint.POINT_INFINITY)) {
            return first;
        }
        BigInteger x1 = first.getAffineX();
        BigInteger y1 = first.getAffineY();
        BigInteger x2 = second.getAffineX();
        BigInteger y2 = second.getAffineY();
        BigInteger lambda;
        if (x1.equals(x2)) {
            if (!y1.equals(y2) || y1.signum() == 0) {
                return ECPoint.POINT_INFINITY;
            }
            lambda = x1.pow(2).multiply(BigInteger.valueOf(3)).add(a)
                    .multiply(y1.shiftLeft(1).modInverse(p)).mod(p);
        } else {
            lambda = y2.subtract(y1).multiply(x2.subtract(x1).modInverse(p)).mod(p);
        }
        BigInteger x3 = lambda.pow(2).subtract(x1).subtract(x2).mod(p);
        BigInteger y3 = lambda.multiply(x1.subtract(x3)).subtract(y1).mod(p);
        return new ECPoint(x3, y3);
    }

    /** Accepts any client certificate at the TLS level; the route checks it against the registered ones. */
    private static final class AcceptAnyClient implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}

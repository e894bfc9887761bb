package io.imcore.push.certificate;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;

/**
 * A push-worker stand-in that hangs: its port takes connections (the kernel completes them into the backlog) and
 * never answers, as a frozen push-worker or a provider call that does not end would look to push-service.
 */
public class SilentPushWorker implements QuarkusTestResourceLifecycleManager {

    private ServerSocket socket;

    @Override
    public Map<String, String> start() {
        try {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("im.push.worker-url", "http://127.0.0.1:" + socket.getLocalPort());
    }

    @Override
    public void stop() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.changeflow.systemtest.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback, for servers whose port must be known before they start. */
public final class FreePorts {

    private FreePorts() {
    }

    /**
     * A port nobody listens on right now. Another process could take it before the caller binds it;
     * on a test machine the window is milliseconds, and a start that fails on it says so.
     */
    public static int pick() {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }
}

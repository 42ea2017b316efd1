package io.changeflow.benchmarks.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Prints a free TCP port on 127.0.0.1 (for the scripts). */
public final class FreePort {

    private FreePort() {
    }

    public static void main(String[] args) {
        System.out.println(find());
    }

    public static int find() {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

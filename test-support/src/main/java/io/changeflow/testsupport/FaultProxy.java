package io.changeflow.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 between a client (the application's connection pool) and a server (the database) that
 * injects network faults, with plain sockets (no Docker): point the client at {@link #port()} and switch modes while
 * it runs. Issue 34; docs/reliability.md "The database unreachable".
 * <ul>
 *   <li>{@link #pass()}: bytes flow both ways (the start).</li>
 *   <li>{@link #hold()}: a network partition or a hung database host. Nothing is forwarded and nothing is reset:
 *       connections stay open, bytes wait (TCP's own flow control holds the rest), new connections are accepted
 *       but hear nothing. {@link #pass()} again delivers what waited, as a healed network does.</li>
 *   <li>{@link #delay(Duration)}: a slow database or link: every chunk read on either side is forwarded after
 *       the delay.</li>
 *   <li>{@link #drop()}: what passes is read and thrown away, both ways (a black hole that never heals for the
 *       bytes it ate: the connections it touched are broken for good).</li>
 *   <li>{@link #resetAll()}: every open connection is closed with a TCP reset (RST) on both sides, as a database
 *       restart or a firewall's reset does; new connections are proxied as before.</li>
 * </ul>
 * Every pump runs on its own daemon thread, two per connection. {@link #close()} ends everything.
 */
public final class FaultProxy implements AutoCloseable {

    /** How bytes are treated right now. */
    public enum Mode {
        /** Forwarded at once. */
        PASS,
        /** Not forwarded: waiting until the mode changes. */
        HOLD,
        /** Forwarded after the delay. */
        DELAY,
        /** Read and thrown away. */
        DROP
    }

    private final InetSocketAddress upstream;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object modeChanged = new Object();
    private final AtomicLong accepted = new AtomicLong();
    private volatile Mode mode = Mode.PASS;
    private volatile Duration delay = Duration.ZERO;
    private volatile boolean closed;

    private FaultProxy(InetSocketAddress upstream, ServerSocket listener) {
        this.upstream = upstream;
        this.listener = listener;
    }

    /** A proxy to {@code host:port}, listening on a free port of 127.0.0.1, in {@link Mode#PASS}. */
    public static FaultProxy to(String host, int port) {
        try {
            var listener = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
            var proxy = new FaultProxy(new InetSocketAddress(host, port), listener);
            daemon("fault-proxy-accept-" + listener.getLocalPort(), proxy::acceptLoop).start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A proxy to the server of {@code jdbcUrl} ({@code jdbc:<driver>://host[:port]/...}, port 3306 when absent). */
    public static FaultProxy toServerOf(String jdbcUrl) {
        var hostPort = jdbcUrl.substring(hostStart(jdbcUrl), hostEnd(jdbcUrl));
        var colon = hostPort.lastIndexOf(':');
        return colon < 0 ? to(hostPort, 3306) : to(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static int hostStart(String jdbcUrl) {
        var start = jdbcUrl.indexOf("//");
        if (!jdbcUrl.startsWith("jdbc:") || start < 0) {
            throw new IllegalArgumentException("not a jdbc:<driver>://host:port/... URL");
        }
        return start + 2;
    }

    private static int hostEnd(String jdbcUrl) {
        var end = jdbcUrl.indexOf('/', hostStart(jdbcUrl));
        return end < 0 ? jdbcUrl.length() : end;
    }

    /** The port clients connect to (on 127.0.0.1). */
    public int port() {
        return listener.getLocalPort();
    }

    /** {@code jdbcUrl} with its host and port replaced by this proxy's ({@code jdbc:mysql://host:port/...}). */
    public String proxied(String jdbcUrl) {
        return jdbcUrl.substring(0, hostStart(jdbcUrl)) + "127.0.0.1:" + port() + jdbcUrl.substring(hostEnd(jdbcUrl));
    }

    public Mode mode() {
        return mode;
    }

    /** Connections accepted so far. */
    public long accepted() {
        return accepted.get();
    }

    /** Connections open now (client sides). */
    public int openConnections() {
        return (int) open.stream().filter(s -> s.getLocalPort() == port()).count();
    }

    public void pass() {
        setMode(Mode.PASS, Duration.ZERO);
    }

    public void hold() {
        setMode(Mode.HOLD, Duration.ZERO);
    }

    public void delay(Duration perChunk) {
        if (perChunk.isNegative()) {
            throw new IllegalArgumentException("a delay is not negative");
        }
        setMode(Mode.DELAY, perChunk);
    }

    public void drop() {
        setMode(Mode.DROP, Duration.ZERO);
    }

    /** Closes every open connection with a TCP reset; the mode stays as it is. */
    public void resetAll() {
        var sockets = List.copyOf(open);
        // Linger 0 on every socket before closing any: a pump that sees its side end closes the other side, and that
        // close must be a reset too, never the graceful end of stream a client would read as a clean EOF.
        sockets.forEach(FaultProxy::lingerZero);
        sockets.forEach(FaultProxy::closeQuietly);
    }

    private void setMode(Mode next, Duration nextDelay) {
        synchronized (modeChanged) {
            delay = nextDelay;
            mode = next;
            modeChanged.notifyAll();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                var client = listener.accept();
                accepted.incrementAndGet();
                connect(client);
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    private void connect(Socket client) {
        var server = new Socket();
        try {
            server.connect(upstream, 5_000);
        } catch (IOException e) {
            lingerZero(client);
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        open.add(client);
        open.add(server);
        var name = "fault-proxy-" + client.getPort();
        daemon(name + "-up", () -> pump(client, server)).start();
        daemon(name + "-down", () -> pump(server, client)).start();
    }

    private void pump(Socket from, Socket to) {
        var buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            while (true) {
                awaitNotHeld();
                var read = in.read(buffer);
                if (read < 0) {
                    break;
                }
                var now = awaitNotHeld();
                if (now == Mode.DROP) {
                    continue;
                }
                if (now == Mode.DELAY) {
                    Thread.sleep(delay.toMillis());
                    awaitNotHeld();
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the connection ended (closed, reset or the proxy closed): end the other side too
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    /** Waits while the proxy holds; answers the mode it goes on with. */
    private Mode awaitNotHeld() throws InterruptedException, IOException {
        synchronized (modeChanged) {
            while (mode == Mode.HOLD && !closed) {
                modeChanged.wait();
            }
        }
        if (closed) {
            throw new IOException("proxy closed");
        }
        return mode;
    }

    private static void lingerZero(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    private static Thread daemon(String name, Runnable body) {
        var thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void close() {
        closed = true;
        synchronized (modeChanged) {
            modeChanged.notifyAll();
        }
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (var socket : List.copyOf(open)) {
            closeQuietly(socket);
        }
    }
}

package io.changeflow.testsupport;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {

    private ServerSocket echo;
    private FaultProxy proxy;

    @BeforeEach
    void echoServerBehindTheProxy() throws IOException {
        echo = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        var acceptor = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    var socket = echo.accept();
                    var pump = new Thread(() -> {
                        try (socket) {
                            socket.getInputStream().transferTo(socket.getOutputStream());
                        } catch (IOException ignored) {
                            // the test closed it
                        }
                    });
                    pump.setDaemon(true);
                    pump.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = FaultProxy.to("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void close() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void passesBytesBothWays() throws IOException {
        try (var client = client()) {
            send(client, "ping");
            assertThat(receive(client, 4)).isEqualTo("ping");
        }
        assertThat(proxy.accepted()).isEqualTo(1);
    }

    @Test
    void holdKeepsTheConnectionOpenAndDeliversWhatWaitedOnceHealed() throws IOException {
        try (var client = client()) {
            send(client, "a");
            assertThat(receive(client, 1)).isEqualTo("a");
            proxy.hold();
            send(client, "held");
            client.setSoTimeout(300);
            assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            assertThat(client.isClosed()).isFalse();

            proxy.pass();
            client.setSoTimeout(5_000);
            assertThat(receive(client, 4)).isEqualTo("held");
        }
    }

    @Test
    void aConnectionOpenedDuringHoldIsAcceptedButHearsNothingUntilHealed() throws IOException {
        proxy.hold();
        try (var client = client()) {
            send(client, "new");
            client.setSoTimeout(300);
            assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            proxy.pass();
            client.setSoTimeout(5_000);
            assertThat(receive(client, 3)).isEqualTo("new");
        }
    }

    @Test
    void delayForwardsEveryChunkNoSoonerThanTheDelay() throws IOException {
        proxy.delay(Duration.ofMillis(200));
        try (var client = client()) {
            var started = System.nanoTime();
            send(client, "slow");
            assertThat(receive(client, 4)).isEqualTo("slow");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("two chunks, each delayed")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(400));
        }
    }

    @Test
    void dropLosesWhatPassesWhileItLasts() throws IOException {
        try (var client = client()) {
            proxy.drop();
            send(client, "lost");
            client.setSoTimeout(300);
            assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            proxy.pass();
            send(client, "kept");
            client.setSoTimeout(5_000);
            assertThat(receive(client, 4)).as("only what was sent after the drop ended").isEqualTo("kept");
        }
    }

    @Test
    void resetAllResetsOpenConnectionsAndNewOnesWork() throws IOException {
        try (var client = client()) {
            send(client, "x");
            assertThat(receive(client, 1)).isEqualTo("x");
            proxy.resetAll();
            client.setSoTimeout(5_000);
            assertThatThrownBy(() -> {
                send(client, "y");
                client.getInputStream().read();
            }).isInstanceOf(SocketException.class);
        }
        try (var again = client()) {
            send(again, "z");
            assertThat(receive(again, 1)).isEqualTo("z");
        }
    }

    @Test
    void proxiedRewritesTheHostAndPortOfAJdbcUrl() {
        assertThat(proxy.proxied("jdbc:mysql://db.example:3306/changeflow?a=b"))
                .isEqualTo("jdbc:mysql://127.0.0.1:" + proxy.port() + "/changeflow?a=b");
    }

    @Test
    void aProxyToTheServerOfAJdbcUrlReachesThatServer() throws IOException {
        try (var second = FaultProxy.toServerOf("jdbc:mysql://127.0.0.1:" + echo.getLocalPort() + "/db?x=1");
             var client = new Socket(InetAddress.getLoopbackAddress(), second.port())) {
            client.setSoTimeout(5_000);
            send(client, "via");
            assertThat(receive(client, 3)).isEqualTo("via");
        }
    }

    private Socket client() throws IOException {
        var socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(US_ASCII));
        socket.getOutputStream().flush();
    }

    private static String receive(Socket socket, int length) throws IOException {
        return new String(socket.getInputStream().readNBytes(length), US_ASCII);
    }
}

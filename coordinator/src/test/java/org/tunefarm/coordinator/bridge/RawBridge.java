package org.tunefarm.coordinator.bridge;

import io.vertx.core.json.JsonObject;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import javax.net.ssl.SSLContext;

/**
 * A bridge client at the byte level, for tests that send what no honest client would: blocking
 * I/O on a plain socket, so every answer is seen as it comes (a frame, a close, or silence).
 */
public final class RawBridge implements AutoCloseable {

    /** What the bridge answered one input with. */
    public sealed interface Answer permits Frame, Closed, Silence {}

    public record Frame(JsonObject frame) implements Answer {
        public String type() { return frame.getString("type"); }
    }

    public record Closed() implements Answer {}

    public record Silence() implements Answer {}

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    public RawBridge(int port, int readTimeoutMs) throws IOException {
        this(new Socket(), port, readTimeoutMs);
    }

    /** Over TLS, trusting what {@code tls} trusts. */
    public RawBridge(SSLContext tls, int port, int readTimeoutMs) throws IOException {
        this(tls.getSocketFactory().createSocket(), port, readTimeoutMs);
    }

    private RawBridge(Socket s, int port, int readTimeoutMs) throws IOException {
        socket = s;
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(readTimeoutMs);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    public static byte[] frame(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + b.length).putInt(b.length).put(b).array();
    }

    /** A send frame as an honest client writes it. */
    public static JsonObject send(String address, String token, JsonObject body) {
        return new JsonObject().put("type", "send").put("address", address).put("replyAddress", UUID.randomUUID().toString())
                .put("headers", new JsonObject().put("token", token)).put("body", body);
    }

    /** Writes bytes; false when the bridge has already closed the connection. */
    public boolean write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public boolean write(JsonObject frame) {
        return write(frame(frame.encode()));
    }

    /** The next answer: a frame, the connection closed, or nothing within the read timeout. */
    public Answer read() {
        try {
            int len = in.readInt();
            if (len < 0 || len > 64 << 20) throw new IOException("the bridge sent a frame of " + len + " bytes");
            byte[] b = new byte[len];
            in.readFully(b);
            return new Frame(new JsonObject(new String(b, StandardCharsets.UTF_8)));
        } catch (SocketTimeoutException e) {
            return new Silence();
        } catch (EOFException e) {
            return new Closed();
        } catch (IOException e) {
            // reset by peer: closed as well
            return new Closed();
        }
    }

    /** Sends a request and returns the first answer. */
    public Answer request(JsonObject frame) {
        if (!write(frame)) return new Closed();
        return read();
    }

    @Override public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}

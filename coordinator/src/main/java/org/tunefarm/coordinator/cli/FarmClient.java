package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.tunefarm.protocol.Protocol;

/**
 * A small REST client for the CLI: what a person at a terminal does against a running farm. The
 * token, when given, goes on every request (an admin token reads too); {@code https://} addresses
 * are checked against {@code --trust FILE} when given, else the JVM's CAs.
 */
final class FarmClient {
    private final HttpClient http;
    private final String base;
    private final String adminToken;

    FarmClient(String base, String adminToken) {
        this(base, adminToken, null);
    }

    FarmClient(String base, String token, Path trust) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.adminToken = token;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (trust != null) {
            try {
                b.sslContext(PemTrust.context(trust));
            } catch (IOException | java.security.GeneralSecurityException e) {
                throw new IllegalArgumentException("--trust: cannot use " + trust + ": " + e.getMessage(), e);
            }
        }
        this.http = b.build();
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (adminToken != null && !adminToken.isEmpty()) b.header("Authorization", "Bearer " + adminToken);
        return send(b);
    }

    /** The body of a successful answer as text (CSV, YAML); an error answer is JSON as ever. */
    String getText(String path) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (adminToken != null && !adminToken.isEmpty()) b.header("Authorization", "Bearer " + adminToken);
        return exchange(b).body();
    }

    JsonNode post(String path, String body, String contentType) throws IOException, InterruptedException {
        return post(path, HttpRequest.BodyPublishers.ofString(body), contentType);
    }

    JsonNode post(String path, byte[] body, String contentType) throws IOException, InterruptedException {
        return post(path, HttpRequest.BodyPublishers.ofByteArray(body), contentType);
    }

    private JsonNode post(String path, HttpRequest.BodyPublisher body, String contentType) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", contentType).POST(body);
        if (adminToken != null && !adminToken.isEmpty()) b.header("Authorization", "Bearer " + adminToken);
        return send(b);
    }

    private JsonNode send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return Protocol.JSON.readTree(exchange(b).body());
    }

    private HttpResponse<String> exchange(HttpRequest.Builder b) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 400) {
            String why = r.body();
            try {
                JsonNode n = Protocol.JSON.readTree(r.body());
                if (n != null && n.has("error")) why = (n.has("field") ? n.get("field").asText() + ": " : "") + n.get("error").asText();
            } catch (IOException notJson) {
                // the body as it came
            }
            throw new IOException("farm answered " + r.statusCode() + ": " + why);
        }
        return r;
    }
}

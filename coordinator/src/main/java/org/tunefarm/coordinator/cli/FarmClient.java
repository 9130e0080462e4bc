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

    JsonNode post(String path, String body, String contentType) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (adminToken != null && !adminToken.isEmpty()) b.header("Authorization", "Bearer " + adminToken);
        return send(b);
    }

    private JsonNode send(HttpRequest.Builder b) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode n = Protocol.JSON.readTree(r.body());
        if (r.statusCode() >= 400) {
            throw new IOException("farm answered " + r.statusCode() + ": " + (n.has("error") ? n.get("error").asText() : r.body()));
        }
        return n;
    }
}

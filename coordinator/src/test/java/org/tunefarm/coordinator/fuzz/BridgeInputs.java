package org.tunefarm.coordinator.fuzz;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.tunefarm.coordinator.ScriptedAgent;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.protocol.Heartbeat;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Pull;
import org.tunefarm.protocol.Register;

/**
 * Seeded bad bridge inputs. Those that may break the stream (garbage, lying lengths, late frames,
 * non-JSON, wrong tokens) go on fresh connections; dishonest reports go on the lease holder's own
 * connection, and reports against its lease on another agent's, where only the content is wrong.
 */
final class BridgeInputs {

    enum Who { FRESH, HOLDER, OTHER }

    record Input(String kind, Who who, byte[] bytes) {}

    private final SplittableRandom r;
    private final String token;
    private final ScriptedAgent holder;
    private final Lease lease;
    private final int maxFrame;
    private int fresh;

    BridgeInputs(long seed, String token, ScriptedAgent holder, Lease lease, int maxFrame) {
        this.r = new SplittableRandom(seed);
        this.token = token;
        this.holder = holder;
        this.lease = lease;
        this.maxFrame = maxFrame;
    }

    List<Input> generate() {
        List<Input> out = new ArrayList<>();
        add(out, 800, "random-bytes", Who.FRESH, () -> Mutations.randomBytes(r, 1 + r.nextInt(300)));
        add(out, 600, "lying-length", Who.FRESH, this::lyingLength);
        add(out, 120, "truncated-frame", Who.FRESH, this::truncated);
        add(out, 800, "garbled-json", Who.FRESH, () -> RawBridge.frame(Mutations.garble(valid(Protocol.PULL, new Pull(holder.id)).encode(), r)));
        add(out, 400, "bad-token", Who.FRESH, this::badToken);
        add(out, 400, "bad-type", Who.FRESH, this::badType);
        add(out, 400, "bad-address", Who.FRESH, this::badAddress);
        add(out, 600, "unregistered", Who.FRESH, this::unregistered);
        add(out, 800, "spoiled-register", Who.FRESH, this::spoiledRegister);
        add(out, 200, "deep-nesting", Who.FRESH, this::deep);
        add(out, 1200, "dishonest-report", Who.HOLDER, this::dishonestReport);
        add(out, 300, "impersonation", Who.HOLDER, this::impersonation);
        add(out, 300, "foreign-lease", Who.OTHER, this::foreignLease);
        return out;
    }

    private interface Bytes {
        byte[] make();
    }

    private static void add(List<Input> out, int n, String kind, Who who, Bytes b) {
        for (int i = 0; i < n; i++) out.add(new Input(kind, who, b.make()));
    }

    private JsonObject valid(String address, Object body) {
        return RawBridge.send(address, token, new JsonObject(Protocol.write(body)));
    }

    private static byte[] bytes(JsonObject frame) {
        return RawBridge.frame(frame.encode());
    }

    private byte[] lyingLength() {
        int len = switch (r.nextInt(4)) {
            case 0 -> -1 - r.nextInt(Integer.MAX_VALUE);
            case 1 -> 0;
            case 2 -> maxFrame + 1 + r.nextInt(Integer.MAX_VALUE - maxFrame - 1);
            default -> Integer.MAX_VALUE;
        };
        return Buffer.buffer().appendInt(len).appendBytes(Mutations.randomBytes(r, r.nextInt(100))).getBytes();
    }

    /** A valid frame cut short: the bridge waits for the rest, then gives up. */
    private byte[] truncated() {
        byte[] whole = bytes(valid(Protocol.HEARTBEAT, new Heartbeat(holder.id, null, null)));
        return java.util.Arrays.copyOf(whole, 4 + r.nextInt(whole.length - 4));
    }

    private byte[] badToken() {
        JsonObject f = valid(Protocol.REGISTER, new Register("fuzz-t" + fresh++, holder.profile, List.of("sleep")));
        JsonObject h = f.getJsonObject("headers");
        switch (r.nextInt(7)) {
            case 0 -> h.remove("token");
            case 1 -> h.put("token", "");
            case 2 -> h.put("token", token + "x");
            case 3 -> h.put("token", token.substring(1));
            case 4 -> h.put("token", r.nextInt());
            case 5 -> f.put("headers", "token=" + token);
            default -> h.put("token", Mutations.randomText(r, token.length()));
        }
        return bytes(f);
    }

    private byte[] badType() {
        JsonObject f = valid(Protocol.PULL, new Pull(holder.id));
        Object[] types = {"publish", "register", "unregister", "rpc", "", 7, null, "SEND", "send ", new JsonObject(), "pong", "message", "err"};
        Object t = types[r.nextInt(types.length)];
        if (t == null) f.remove("type");
        else f.put("type", t);
        return bytes(f);
    }

    private byte[] badAddress() {
        JsonObject f = valid(Protocol.REGISTER, new Register("fuzz-a" + fresh++, holder.profile, List.of("sleep")));
        Object[] addresses = {"tunefarm.local.sweep.submit", "__vertx.reply." + r.nextInt(), "", null, 5, "tunefarm.agent.register ",
                "TUNEFARM.AGENT.REGISTER", "tunefarm.*", Mutations.randomText(r, 30), new JsonArray().add(Protocol.REGISTER)};
        Object a = addresses[r.nextInt(addresses.length)];
        if (a == null) f.remove("address");
        else f.put("address", a);
        return bytes(f);
    }

    /** Honest-looking requests from a connection that never registered: pull, heartbeat or report as the holder. */
    private byte[] unregistered() {
        JsonObject f = switch (r.nextInt(3)) {
            case 0 -> valid(Protocol.PULL, new Pull(holder.id));
            case 1 -> valid(Protocol.HEARTBEAT, new Heartbeat(holder.id, lease.leaseId(), null));
            default -> RawBridge.send(Protocol.REPORT, token, holder.reportJson(lease, pick()));
        };
        if (r.nextBoolean()) f.put("body", Mutations.spoil(f.getJsonObject("body"), r).put("agentId", holder.id));
        return bytes(f);
    }

    private byte[] spoiledRegister() {
        JsonObject body = new JsonObject(Protocol.write(new Register("fuzz-r" + fresh++, holder.profile, List.of("sleep"))));
        return bytes(RawBridge.send(Protocol.REGISTER, token, Mutations.spoil(body, r)));
    }

    private byte[] deep() {
        int d = 65 + r.nextInt(5000);
        String body = "{\"v\":1,\"agentId\":\"x\",\"profile\":" + "[".repeat(d) + "]".repeat(d) + "}";
        return RawBridge.frame("{\"type\":\"send\",\"address\":\"" + Protocol.REGISTER + "\",\"replyAddress\":\"r\",\"headers\":{\"token\":\"" + token + "\"},\"body\":" + body + "}");
    }

    private Lease.Candidate pick() {
        return lease.candidates().get(r.nextInt(lease.candidates().size()));
    }

    /** Values each field of a measurement must never have; every entry makes the report dishonest. */
    private static final Map<String, Object[]> LIES = Map.ofEntries(
            Map.entry("stats.minNs", new Object[] {"NaN", "Infinity", -1.0, 0.0, -0.0, 1e13, 1e308, "x"}),
            Map.entry("stats.medianNs", new Object[] {"NaN", "-Infinity", -5.0, 0.0, 4e12, 1e308}),
            Map.entry("stats.meanNs", new Object[] {"NaN", -1.0, 0.0, 1e300}),
            Map.entry("stats.stdevNs", new Object[] {"NaN", -1.0, 1e300, "Infinity"}),
            Map.entry("stats.cv", new Object[] {-0.5, "NaN", 1e7}),
            Map.entry("stats.samples", new Object[] {0, -1, 20_000_000, 1.5}),
            Map.entry("stats.callsPerSample", new Object[] {0, -5}),
            Map.entry("index", new Object[] {-2, 999_999, Long.MAX_VALUE, Long.MIN_VALUE}),
            Map.entry("params.a", new Object[] {99, -1, "5", null, 5.5}),
            Map.entry("params.extra", new Object[] {"x", 1}),
            Map.entry("sweepId", new Object[] {"nope", "", null}),
            Map.entry("agentId", new Object[] {"fuzz-other", null, ""}),
            Map.entry("deviceClass", new Object[] {"fake", null}),
            Map.entry("status", new Object[] {"EXCELLENT", null, 3}),
            Map.entry("startedAt", new Object[] {-1, 9_000_000_000_000_000L}),
            Map.entry("order", new Object[] {-1}),
            Map.entry("detail", new Object[] {"x".repeat(20_000)}),
            Map.entry("before.temperatureC", new Object[] {1e6, -500.0, "NaN"}),
            Map.entry("after.powerW", new Object[] {-1.0, 1e9}),
            Map.entry("key.op", new Object[] {"gemm", "conv9d"}),
            Map.entry("key.dtype", new Object[] {"fp64", null}),
            Map.entry("maxError", new Object[] {-1.0, "NaN", "Infinity"}),
            Map.entry("stats", new Object[] {null, "fast", new JsonArray()}));
    private static final List<String> LIE_FIELDS = LIES.keySet().stream().sorted().toList();

    private byte[] dishonestReport() {
        JsonObject report = holder.reportJson(lease, pick());
        switch (r.nextInt(10)) {
            case 0 -> {
                Object[] bad = {null, UUID.randomUUID().toString(), "", 5};
                report.put("leaseId", bad[r.nextInt(bad.length)]);
            }
            case 1 -> report.put("measurements", new Object[] {null, "x", new JsonObject(), new JsonArray().addNull()}[r.nextInt(4)]);
            case 2 -> report.put("v", new Object[] {0, 2, "1", null, 1.5}[r.nextInt(5)]);
            case 3 -> {
                // One honest measurement and one lie: the report is refused whole.
                JsonObject lie = lie(holder.reportJson(lease, pick()));
                report.getJsonArray("measurements").add(ScriptedAgent.firstMeasurement(lie));
            }
            default -> report = lie(report);
        }
        return bytes(RawBridge.send(Protocol.REPORT, token, report));
    }

    private JsonObject lie(JsonObject report) {
        JsonObject m = ScriptedAgent.firstMeasurement(report);
        String field = LIE_FIELDS.get(r.nextInt(LIE_FIELDS.size()));
        Object[] values = LIES.get(field);
        Object v = values[r.nextInt(values.length)];
        if (field.equals("startedAt")) m.put("finishedAt", 9_000_000_000_000_001L);
        String[] path = field.split("\\.");
        JsonObject target = m;
        for (int i = 0; i < path.length - 1; i++) {
            if (target.getValue(path[i]) == null) target.put(path[i], new JsonObject());
            target = target.getJsonObject(path[i]);
        }
        target.put(path[path.length - 1], v);
        return report;
    }

    private byte[] impersonation() {
        String other = new String[] {"fuzz-other", "fuzz-holder2", "", "x".repeat(101)}[r.nextInt(4)];
        JsonObject f = switch (r.nextInt(3)) {
            case 0 -> valid(Protocol.PULL, new Pull(other));
            case 1 -> valid(Protocol.HEARTBEAT, new Heartbeat(other, null, null));
            default -> valid(Protocol.REGISTER, new Register(other, holder.profile, List.of("sleep")));
        };
        return bytes(f);
    }

    /** The holder's honest measurement, reported by another agent as its own: not its lease. */
    private byte[] foreignLease() {
        JsonObject report = holder.reportJson(lease, pick()).put("agentId", "fuzz-other");
        ScriptedAgent.firstMeasurement(report).put("agentId", "fuzz-other");
        if (r.nextInt(3) == 0) report = lie(report).put("agentId", "fuzz-other");
        return bytes(RawBridge.send(Protocol.REPORT, token, report));
    }
}

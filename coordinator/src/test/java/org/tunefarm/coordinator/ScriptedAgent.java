package org.tunefarm.coordinator;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Pull;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;

/**
 * An agent written by hand over a raw socket, as a board in another language would: it registers,
 * pulls and reports honest sleep measurements (time is known), and can send anything else too.
 */
public final class ScriptedAgent implements AutoCloseable {
    public final String id;
    public final DeviceProfile profile;
    public final RawBridge link;
    private final String token;

    public ScriptedAgent(int port, String token, String id, String cpu) throws IOException {
        this.id = id;
        this.token = token;
        this.profile = profile(cpu);
        this.link = new RawBridge(port, 10_000);
    }

    public static DeviceProfile profile(String cpu) {
        return new DeviceProfile(cpu, "testarch", 2, 2, 32, 512, 32768, 16, "Linux", "amd64", "Test", 25, 256, List.of(), Map.of());
    }

    public String deviceClass() {
        return profile.deviceClass();
    }

    public RawBridge.Answer send(String address, Object body) {
        return link.request(RawBridge.send(address, token, new JsonObject(Protocol.write(body))));
    }

    /** The reply body, or an exception naming what came back instead. */
    public JsonObject ask(String address, Object body) {
        RawBridge.Answer a = send(address, body);
        if (a instanceof RawBridge.Frame f && "message".equals(f.type())) return f.frame().getJsonObject("body");
        throw new IllegalStateException(address + " answered " + a);
    }

    public void register() {
        ask(Protocol.REGISTER, new Register(id, profile, List.of("sleep")));
    }

    /** A lease, or null when there is no work now. */
    public Lease pull() {
        return Protocol.read(ask(Protocol.PULL, new Pull(id)).encode(), Work.class).lease();
    }

    /** What an honest sleep harness measures for a candidate: its known time. */
    public Measurement honest(Lease lease, Lease.Candidate c) {
        long now = System.currentTimeMillis();
        double ns = 1000.0 * SleepSpec.sleepMicros(lease.key(), c.params());
        return new Measurement(lease.sweepId(), lease.key(), c.index(), c.params(), Status.OK, Stats.of(new double[] {ns, ns * 1.01, ns * 1.02}, 1),
                0.0, SensorReading.NONE, SensorReading.NONE, "", id, deviceClass(), now, now + 1, 0, lease.round());
    }

    /** A report of one honest measurement as JSON, ready to be spoiled. */
    public JsonObject reportJson(Lease lease, Lease.Candidate c) {
        return new JsonObject(Protocol.write(new Report(id, lease.leaseId(), List.of(honest(lease, c)), false)));
    }

    public static JsonObject firstMeasurement(JsonObject report) {
        JsonArray ms = report.getJsonArray("measurements");
        return ms.getJsonObject(0);
    }

    /** Measures the whole lease honestly and reports it done. */
    public int measure(Lease lease) {
        List<Measurement> ms = lease.candidates().stream().map(c -> honest(lease, c)).toList();
        return ask(Protocol.REPORT, new Report(id, lease.leaseId(), ms, true)).getInteger("recorded");
    }

    @Override public void close() {
        link.close();
    }
}

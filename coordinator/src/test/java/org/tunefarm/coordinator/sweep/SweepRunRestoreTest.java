package org.tunefarm.coordinator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease;
import org.tunefarm.space.SearchSpace;

/** A sweep restored from its logs: records folded in, searches begun at their original moment, state right at once. */
class SweepRunRestoreTest {
    static final String CLASS = "zen3-2c-avx256-jdk25-0000";
    static final long CREATED = 1_700_000_000_000L;

    static SweepRun sweep(String strategy) {
        return new SweepRun("sw1", SweepSpecReader.read("""
                kernel: sleep
                shapes: [{unitUs: 100}]
                space: {a: [4, 5, 6], b: [11], mode: [fast]}
                strategy: %s
                measure: {finalists: 0}
                """.formatted(strategy)), CREATED);
    }

    static Measurement record(KernelKey key, long index, Map<String, Object> params, Status status) {
        double ns = 1000.0 * SleepSpec.sleepMicros(key, params);
        return new Measurement("sw1", key, index, params, status, status == Status.OK ? Stats.of(new double[] {ns, ns, ns}, 1) : null,
                0.0, SensorReading.NONE, SensorReading.NONE, "", "agent-1", CLASS, CREATED, CREATED + 1, 0);
    }

    @Test void recordsReplayedBeforeTheClassBeginsAreFoldedInWhenItResumes() {
        SweepRun run = sweep("{name: exhaustive, budget: 0}");
        KernelKey key = run.spec().keys().get(0);
        SearchSpace space = new SleepSpec().space(key, 2).narrow(run.spec().space(), run.spec().constraints());
        run.recorded(record(key, Lease.Candidate.BASELINE, new SleepSpec().defaultConfig(key, 2), Status.OK));
        int points = 0;
        for (var it = space.validIndices(); it.hasNext(); points++) {
            long i = it.next();
            run.recorded(record(key, i, space.config(i), points == 0 ? Status.of("POWER_CAPPED") : Status.OK));
        }
        assertEquals("waiting", run.status(CREATED).state(), "no class has begun yet");

        long now = CREATED + 60_000;
        for (Search s : run.searches(CLASS, 2, 256, DeviceProfile.REGISTERS_UNKNOWN, CREATED + 5)) s.settle(now);
        Search.Progress p = run.status(now).searches().get(0);
        assertEquals(points, p.measured());
        assertEquals(1, p.failed(), "a status of a newer version counts as a failure");
        assertTrue(p.baselineMeasured());
        assertEquals(0, p.pending());
        assertEquals("done", run.status(now).state(), "an exhausted space is done before any agent asks");
    }

    @Test void aResumedClassKeepsItsTimeWindowAndLendsWhatIsLeft() {
        SweepRun run = sweep("{name: exhaustive, budget: 0, seconds: 60}");
        KernelKey key = run.spec().keys().get(0);
        run.recorded(record(key, Lease.Candidate.BASELINE, new SleepSpec().defaultConfig(key, 2), Status.OK));
        long began = CREATED + 1_000;
        List<Search> searches = run.searches(CLASS, 2, 256, DeviceProfile.REGISTERS_UNKNOWN, began);
        Search s = searches.get(0);
        s.settle(began + 30_000);
        assertEquals(began + 60_000, s.endsAt());
        assertFalse(s.done(began + 30_000));
        assertEquals(1, s.progress(began + 30_000).pending(), "the strategy's next candidate waits to be lent");
        List<Lease.Candidate> lent = s.take(4, began + 30_000);
        assertEquals(3, lent.size(), "the space's three points, the settled one among them, none twice");
        assertEquals(3, lent.stream().map(Lease.Candidate::index).distinct().count());
        assertEquals(List.of(), s.take(4, began + 61_000), "nothing new once the original window has ended");
    }
}

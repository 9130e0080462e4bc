package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.heatsim.HeatDevice;
import org.tunefarm.agent.kernels.heatsim.HeatSimFamily;
import org.tunefarm.agent.kernels.heatsim.HeatTicker;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.kernel.HeatModel;
import org.tunefarm.kernel.HeatSimSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Status;

/**
 * The agent's heat handling on the simulated heating device, in this JVM: the device in a temporary
 * folder ticks and publishes its sysfs, the runner reads it through {@code Sensors.linux}, the
 * heatsim kernel heats it. The device runs twice as fast as the bench's (same steady states).
 */
class HeatSimBatchTest {

    private static final KernelKey KEY = new KernelKey("heatsim", Map.of("unitUs", 8000), "fp32");
    private static final MeasureSettings QUICK = new MeasureSettings(10, 10.0, 50, 0.05, 10_000, 3);
    private static final Map<String, Object> HOT = Map.of("width", 8, "layout", "tiles");
    private static final Map<String, Object> COOL = Map.of("width", 4, "layout", "tiles");

    @TempDir Path dir;
    private HeatDevice device;
    private HeatTicker ticker;
    private Sensors sensors;
    private HeatSimFamily family;
    private ThermalGuard guard;
    private BatchRunner runner;

    @BeforeEach
    void device() {
        device = HeatDevice.create(dir, HeatModel.BENCH.faster(2));
        ticker = new HeatTicker(device, 20);
        sensors = Sensors.linux(HeatDevice.sysfsRoot(dir));
        family = new HeatSimFamily(dir);
        guard = ThermalGuard.atStart(sensors, new ThermalSettings(null, 5, 30_000, 2, 0.10));
        runner = new BatchRunner(() -> Worker.inProcess(FamilyLookup.of(family)), sensors, "agent-h", "sim", Clock.systemUTC(),
                CandidateCheck.NONE, guard);
    }

    @AfterEach
    void stop() {
        ticker.close();
    }

    @Test
    void theFakeSysfsShowsTheDevice() {
        SensorReading r = sensors.read();
        assertEquals(device.model().ambientC() + device.model().idleW() * device.model().resistance(), r.temperatureC(), 0.2);
        assertEquals(2000.0, r.clockMhz());
        assertEquals(0.5, r.powerW(), 1e-6);
        assertEquals(r.temperatureC() + 5, guard.startTemperatureC(), 0.2, "the idle reading plus the margin");
    }

    @Test
    void aHotBoardIsWaitedForAndThrottledMeasurementsAreRetakenAfterCooling() {
        heatTo(62);
        List<BatchCandidate> six = new ArrayList<>();
        for (int i = 0; i < 6; i++) six.add(new BatchCandidate(i, HOT)); // back to back, the widest heats the board fast
        List<Measurement> ms = new ArrayList<>();
        // No noise re-takes: on a noisy host the first candidate's would run back to back from a board
        // its first take had warmed, and the record keeps its last take's start (noise re-takes that
        // cool first are the test below). What this test measures is heat alone.
        Fidelity heatOnly = new Fidelity(Fidelity.DEFAULTS.maxCv(), 0, Fidelity.DEFAULTS.finalists());
        assertEquals(6, runner.run(new Batch("s", KEY, six, QUICK, 0, heatOnly), ms::add));

        Measurement first = ms.get(0);
        assertNotNull(first.thermal());
        assertTrue(first.thermal().cooldownWaitMs() > 0, "the batch waited for the board: " + first.thermal());
        assertFalse(first.thermal().cooldownTimedOut());
        assertTrue(first.thermal().startTemperatureC() < guard.startTemperatureC(), "started cool: " + first.thermal());
        for (Measurement m : ms.subList(1, ms.size())) assertTrue(m.thermal().startTemperatureC() != null);

        List<Measurement> retaken = ms.stream().filter(m -> m.detail().contains("re-taken")).toList();
        assertFalse(retaken.isEmpty(), "back-to-back hot candidates heat the board into throttling: "
                + ms.stream().map(m -> m.status() + " " + m.detail() + " " + m.thermal()).toList());
        for (Measurement m : retaken) {
            assertTrue(m.thermal().cooldownWaitMs() > 0, "re-taken after cooling: " + m.thermal());
            assertTrue(m.status() == Status.OK ? m.thermal().throttle() == null : m.thermal().throttle() != null, m.detail());
        }
        for (Measurement m : ms) {
            assertTrue(m.status() == Status.OK || m.status() == Status.THROTTLED, m.status() + " " + m.detail());
            if (m.status() != Status.OK) continue;
            // 16.5 W for a 1.26 ms call at the full clock, ~0.021 J: from the hwmon power, read under load.
            double model = device.model().powerW(HeatSimSpec.dynamicW(HOT), 40) * HeatSimSpec.callNsAtMax(KEY, HOT) * 1e-9;
            assertNotNull(m.energyJ(), "power is readable");
            assertTrue(m.energyJ() > model * 0.5 && m.energyJ() < model * 1.5, "energy per call " + m.energyJ() + " J, model " + model + ": " + m);
        }
    }

    @Test
    void aThrottledCandidatesNoisyTakesAreEachTakenFromACoolBoard() {
        // A CV bound no take meets: every take of the widest is taken three times more. Back to back,
        // the four heat the board past its trip point from cool; re-taken after cooling, each take
        // waits for the board, or the re-take would be throttled by its own noise re-takes again.
        Fidelity everyTakeNoisy = new Fidelity(1e-9, 3, 0);
        List<Measurement> ms = new ArrayList<>();
        runner.run(new Batch("s", KEY, List.of(new BatchCandidate(0, HOT)), QUICK, 0, everyTakeNoisy, Objective.LATENCY, 0, Long.MAX_VALUE), ms::add);
        Measurement m = ms.get(0);
        assertTrue(m.detail().startsWith("retaken 3x"), m.detail());
        assertTrue(m.detail().contains("re-taken 1x after cooling"), "the takes back to back ran throttled: " + m.detail());
        assertEquals(Status.OK, m.status(), "the re-take's takes each ran cool: " + m.detail() + " " + m.thermal());
        assertTrue(m.thermal().startTemperatureC() < guard.startTemperatureC(), "the reported take started cool: " + m.thermal());
    }

    @Test
    void theSustainedWinnerIsNotTheBurstWinner() {
        List<BatchCandidate> pair = List.of(new BatchCandidate(0, HOT), new BatchCandidate(1, COOL));
        List<Measurement> burst = new ArrayList<>();
        runner.run(new Batch("s", KEY, pair, QUICK), burst::add);
        Measurement burstWinner = burst.stream().filter(m -> m.status() == Status.OK)
                .min(Comparator.comparingDouble(m -> m.stats().medianNs())).orElseThrow();
        assertEquals(HOT, burstWinner.params(), "the widest wins a burst from cool: " + burst);

        List<Measurement> sustained = new ArrayList<>();
        runner.run(new Batch("s", KEY, pair, QUICK, 1, Fidelity.DEFAULTS, Objective.SUSTAINED, 5, Long.MAX_VALUE), sustained::add);
        assertEquals(2, sustained.size());
        for (Measurement m : sustained) {
            assertEquals(Status.OK, m.status(), m.detail());
            assertEquals(1, m.round());
            assertNotNull(m.sustainedNs());
            assertTrue(m.thermal().startTemperatureC() < guard.startTemperatureC(), "each starts from a cool board: " + m.thermal());
            double model = HeatSimSpec.steadyState(device.model(), KEY, m.params()).callNs();
            assertEquals(model, m.sustainedNs(), model * 0.15, "the last fifth of the run is near the model's steady state: " + m.detail());
            assertNotNull(m.energyJ());
        }
        Measurement sustainedWinner = sustained.stream().min(Comparator.comparingDouble(Measurement::sustainedNs)).orElseThrow();
        assertEquals(COOL, sustainedWinner.params(), "once hot, the narrower wins: " + sustained);
    }

    @Test
    void aLeaseWithNoTimeToSpareIsNotWaitedForAndSaysSo() {
        heatTo(62);
        List<BatchCandidate> two = List.of(new BatchCandidate(0, HOT), new BatchCandidate(1, COOL));
        // The deadline leaves exactly the candidates' allowances and the reports' reserve: nothing to wait with
        // (a re-take later is affordable again: a measurement that took less than its allowance leaves the rest).
        long deadline = System.currentTimeMillis() + 2 * QUICK.timeoutMs() + BatchRunner.REPORT_RESERVE_MS;
        List<Measurement> ms = new ArrayList<>();
        runner.run(new Batch("s", KEY, two, QUICK, 0, Fidelity.DEFAULTS, Objective.LATENCY, 0, deadline), ms::add);
        assertEquals(2, ms.size(), "the batch goes on, nothing is lost");
        Measurement first = ms.get(0);
        assertTrue(first.thermal().cooldownTimedOut(), "ran warm, and the record says so: " + first.thermal());
        assertTrue(first.thermal().cooldownWaitMs() < 1000, "no wait the lease cannot afford: " + first.thermal());
        assertTrue(first.thermal().startTemperatureC() > guard.startTemperatureC());
    }

    /** Runs the widest candidate until the device is this hot. */
    private void heatTo(double celsius) {
        KernelFamily.Candidate c = family.candidate(family.workload(KEY, 1), HOT);
        while (device.advance().temperatureC() < celsius) c.run();
    }
}

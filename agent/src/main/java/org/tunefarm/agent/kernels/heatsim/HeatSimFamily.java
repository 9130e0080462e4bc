package org.tunefarm.agent.kernels.heatsim;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.HeatModel;
import org.tunefarm.kernel.HeatSimSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * Runs {@link HeatSimSpec} candidates on a simulated heating device ({@link HeatDevice}): each
 * call heats the device with the candidate's power and lasts as long as the device's clock, which
 * falls once it is hot, makes it. A call waits rather than computes (it parks), so simulating a
 * hot board costs the real one next to nothing.
 *
 * <p>The device is the one in the folder named by the environment variable {@value #DIR_ENV}
 * (the worker inherits it from the agent), shared with the ticker that cools it and publishes its
 * sensors; without it each worker simulates a device of its own, in memory, with no sensors.
 */
public final class HeatSimFamily implements KernelFamily {

    public static final String DIR_ENV = "TUNEFARM_HEATSIM_DIR";

    private final HeatSimSpec spec = new HeatSimSpec();
    private final Path dir;
    private HeatDevice device;

    /** The device named by {@value #DIR_ENV}, else one in memory. */
    public HeatSimFamily() {
        String d = System.getenv(DIR_ENV);
        this.dir = d == null || d.isBlank() ? null : Path.of(d);
    }

    /** The device in {@code dir}. */
    public HeatSimFamily(Path dir) {
        this.dir = dir;
    }

    @Override public KernelSpec spec() { return spec; }

    @Override public Workload workload(KernelKey key, long seed) {
        spec.validate(key);
        return new HeatWorkload(key, device());
    }

    private synchronized HeatDevice device() {
        if (device == null) device = dir == null ? HeatDevice.inMemory(HeatModel.BENCH) : HeatDevice.open(dir);
        return device;
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        HeatWorkload w = (HeatWorkload) workload;
        double atMax;
        double watts;
        try {
            atMax = HeatSimSpec.callNsAtMax(w.key(), params);
            watts = HeatSimSpec.dynamicW(params);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("heatsim parameters " + params + ": " + e.getMessage(), e);
        }
        HeatDevice d = w.device();
        return new Candidate() {
            /**
             * When the previous call was due to end, and when it did: a call that woke late (a busy
             * machine) shortens the next one, so back-to-back calls keep the modelled rate; a pause
             * of the caller between calls is its own time, not carried over.
             */
            private long due;
            private long returned = Long.MIN_VALUE;

            @Override public void run() {
                HeatDevice.Reading r = d.call(watts, atMax);
                long start = System.nanoTime();
                if (returned == Long.MIN_VALUE || start - returned > 1_000_000) due = start;
                due += (long) d.callNs(atMax, r.clockMhz());
                for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) LockSupport.parkNanos(left);
                returned = System.nanoTime();
            }

            @Override public double maxError() { return 0; }
        };
    }

    private record HeatWorkload(KernelKey key, HeatDevice device) implements Workload {
        @Override public double errorBound() { return 0; }
    }
}

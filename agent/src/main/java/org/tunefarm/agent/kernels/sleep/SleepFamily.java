package org.tunefarm.agent.kernels.sleep;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.kernel.SleepSpec;

/** Parks for {@link SleepSpec#sleepMicros}: a kernel whose time is known, with nothing to get wrong. */
public final class SleepFamily implements KernelFamily {

    private final SleepSpec spec = new SleepSpec();

    @Override public KernelSpec spec() { return spec; }

    @Override public Workload workload(KernelKey key, long seed) {
        spec.validate(key);
        return new SleepWorkload(key);
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        long micros;
        try {
            micros = SleepSpec.sleepMicros(workload.key(), params);
        } catch (RuntimeException e) { // a missing or non-numeric a or b
            throw new IllegalArgumentException("sleep parameters " + params + ": " + e.getMessage(), e);
        }
        long nanos = micros * 1000;
        return new Candidate() {
            @Override public void run() {
                long deadline = System.nanoTime() + nanos;
                // parkNanos may return early (spuriously or on interrupt); sleep the full time.
                for (long left = nanos; left > 0; left = deadline - System.nanoTime()) LockSupport.parkNanos(left);
            }

            @Override public double maxError() { return 0; }
        };
    }

    private record SleepWorkload(KernelKey key) implements Workload {
        @Override public double errorBound() { return 0; }
    }
}

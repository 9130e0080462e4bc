package org.tunefarm.agent.kernels.conv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ConvCandidateTest {

    /** A kernel over {@code units} units that counts how often each is computed, and writes it. */
    private record Counting(int units, AtomicIntegerArray computed) implements ConvKernel {
        @Override public void compute(float[] out, int from, int to) {
            for (int u = from; u < to; u++) {
                computed.incrementAndGet(u);
                out[u] = u;
            }
        }
    }

    /** Chunks are taken from a shared counter: every unit must be computed once per call, by whichever thread. */
    @Test void everyUnitIsComputedExactlyOncePerCallWhateverTheThreads() {
        for (int units : new int[] {1, 2, 7, 37, 112}) {
            for (int threads = 1; threads <= 4; threads++) {
                AtomicIntegerArray computed = new AtomicIntegerArray(units);
                float[][] output = new float[1][];
                try (ConvCandidate c = new ConvCandidate(units, out -> { output[0] = out; return 0; }, threads, () -> new Counting(units, computed))) {
                    for (int call = 1; call <= 5; call++) {
                        c.run();
                        c.maxError();
                        for (int u = 0; u < units; u++) {
                            assertEquals(call, computed.get(u), "unit " + u + " of " + units + " at " + threads + " threads, call " + call);
                            assertEquals(u, output[0][u], 0f);
                        }
                    }
                }
            }
        }
    }
}

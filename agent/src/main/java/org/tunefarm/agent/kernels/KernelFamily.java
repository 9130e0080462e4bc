package org.tunefarm.agent.kernels;

import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * The agent-side implementation of a kernel family. The harness asks for a {@link Workload}
 * once per shape (inputs from a seed plus the reference answer), then binds each candidate to it.
 * Families are stateless and thread-safe; workloads and candidates are not.
 */
public interface KernelFamily {

    KernelSpec spec();

    /**
     * The version of this family's code, stamped on every record it measures. Raise it whenever a
     * change to the kernels can change their timings (a new micro-kernel, other packing): the
     * table never merges measurements of different implementations, and the newest supersedes,
     * so a winner measured on the old code does not stand beside candidates measured on the new.
     */
    default int implementation() { return 1; }

    /** Inputs generated from {@code seed} and the reference output for this shape. */
    Workload workload(KernelKey key, long seed);

    /**
     * A runnable candidate for a configuration of this family's space.
     *
     * @throws IllegalArgumentException when the configuration cannot run (the harness records INVALID)
     */
    Candidate candidate(Workload workload, Map<String, Object> params);

    /** Inputs and the reference answer for one shape. */
    interface Workload {
        KernelKey key();

        /** Error allowed between a candidate's output and the reference (fp32 reordering). */
        double errorBound();
    }

    /** One configuration bound to a workload, with its own output buffer. */
    interface Candidate extends AutoCloseable {

        /** One call of the kernel: the unit the harness times. */
        void run();

        /** Largest absolute difference between the last run's output and the reference. */
        double maxError();

        /** Releases threads or buffers the candidate holds. */
        @Override default void close() {}
    }
}

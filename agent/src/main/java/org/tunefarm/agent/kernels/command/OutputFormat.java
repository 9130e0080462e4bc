package org.tunefarm.agent.kernels.command;

import java.util.List;

/**
 * How a command kernel's program reports its timing on stdout. Implementations are stateless.
 */
public interface OutputFormat {

    /** What the program said, or why it could not be read. */
    Reading read(String stdout);

    /**
     * @param timesMs  one per timed repetition, in milliseconds; empty when {@code problem} is set
     * @param correct  the program's own verdict on its answer; null when it gave none
     * @param maxError the largest difference from its reference, when it reported one
     * @param problem  why the output could not be read, or null
     */
    record Reading(List<Double> timesMs, Boolean correct, Double maxError, String problem) {
        static Reading failed(String problem) {
            return new Reading(List.of(), null, null, problem);
        }
    }

    /** {@code {"time_ms": x}} or {@code {"times_ms": [..]}}, with optional {@code correct} and {@code max_error}. */
    static OutputFormat json() {
        return new JsonOutput();
    }

    /** Every match of {@code regex}'s first group is one time in milliseconds. */
    static OutputFormat regex(String regex) {
        return new RegexOutput(java.util.regex.Pattern.compile(regex));
    }
}

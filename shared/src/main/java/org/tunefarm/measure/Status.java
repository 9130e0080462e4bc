package org.tunefarm.measure;

/** How a candidate's measurement ended. Only {@link #OK} measurements can win. */
public enum Status {
    /** Ran, answer verified, timed. */
    OK,
    /** Ran, but its output differed from the reference beyond the error bound. */
    WRONG_ANSWER,
    /** The configuration is not valid for this shape or device (e.g. breaks a constraint). */
    INVALID,
    /** Exceeded the per-candidate timeout; the worker was killed. */
    TIMEOUT,
    /** The worker died or the kernel threw. */
    CRASH,
    /** The kernel could not be built (command kernels). */
    BUILD_FAILED
}

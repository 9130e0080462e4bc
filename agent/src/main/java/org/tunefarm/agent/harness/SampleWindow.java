package org.tunefarm.agent.harness;

/**
 * When a measurement's timed samples ran, in epoch milliseconds (with microseconds), and how many
 * calls ran in that time (samples set aside as preempted or collected included): what the agent
 * needs to turn the board's power or energy readings, taken in another process, into joules per call.
 *
 * @param fromMs start of the first timed sample
 * @param toMs   end of the last timed sample
 * @param calls  calls run in between
 */
public record SampleWindow(double fromMs, double toMs, long calls) {
    public SampleWindow {
        if (!(toMs >= fromMs)) throw new IllegalArgumentException("toMs (" + toMs + ") before fromMs (" + fromMs + ")");
        if (calls < 1) throw new IllegalArgumentException("calls must be at least 1, got " + calls);
    }

    public double seconds() {
        return (toMs - fromMs) / 1000;
    }
}

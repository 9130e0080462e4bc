package org.tunefarm.coordinator.lease;

import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.ProtocolException;

/** Refuses measurements no honest harness produces: missing fields, NaN, negative or absurd timings. */
final class MeasurementCheck {
    /** An hour per call: anything slower is not a kernel measurement. */
    private static final double MAX_NS = 3.6e12;

    private MeasurementCheck() {}

    static void check(Measurement m, String f) {
        if (m.status() == null) throw new ProtocolException(f + ".status: is required");
        if (m.key() == null) throw new ProtocolException(f + ".key: is required");
        if (m.params() == null) throw new ProtocolException(f + ".params: is required");
        if (m.sweepId() == null || m.agentId() == null || m.deviceClass() == null) throw new ProtocolException(f + ": sweepId, agentId and deviceClass are required");
        if (m.detail() != null && m.detail().length() > 16_384) throw new ProtocolException(f + ".detail: longer than 16384 characters");
        if (m.status() == Status.OK) {
            Stats s = m.stats();
            if (s == null) throw new ProtocolException(f + ".stats: required when status is OK");
            finite(s.minNs(), f + ".stats.minNs");
            finite(s.medianNs(), f + ".stats.medianNs");
            finite(s.meanNs(), f + ".stats.meanNs");
            if (!(s.stdevNs() >= 0) || Double.isInfinite(s.stdevNs())) throw new ProtocolException(f + ".stats.stdevNs: must be finite and non-negative");
            if (!(s.cv() >= 0) || Double.isInfinite(s.cv())) throw new ProtocolException(f + ".stats.cv: must be finite and non-negative");
            if (s.samples() < 1) throw new ProtocolException(f + ".stats.samples: must be at least 1");
            if (s.callsPerSample() < 1) throw new ProtocolException(f + ".stats.callsPerSample: must be at least 1");
            if (s.minNs() > s.medianNs() * (1 + 1e-9)) throw new ProtocolException(f + ".stats.minNs: larger than the median");
            if (m.maxError() != null && !(m.maxError() >= 0)) throw new ProtocolException(f + ".maxError: must be a non-negative number");
        }
        if (m.finishedAt() < m.startedAt()) throw new ProtocolException(f + ".finishedAt: before startedAt");
    }

    private static void finite(double v, String field) {
        if (!(v > 0) || v > MAX_NS) throw new ProtocolException(field + ": must be a positive number of nanoseconds below " + MAX_NS + ", got " + v);
    }
}

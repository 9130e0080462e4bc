package org.tunefarm.measure;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a sweep tunes for. Each objective ranks measurements by one figure, lower is better; a
 * measurement that lacks the figure (no power sensor, no sustained run) cannot win that objective.
 * The best-kernel table keeps one winner per objective.
 */
public enum Objective {
    /** Median time per call of a short measurement (the default). */
    LATENCY,
    /** Time per call after running the candidate continuously for the sweep's {@code sustainedSeconds}. */
    SUSTAINED,
    /** Joules per call, where the board's power or energy is readable. */
    ENERGY,
    /** Energy-delay product: joules per call times seconds per call. */
    EDP;

    @JsonValue
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code latency}, {@code sustained}, {@code energy} or {@code edp}; a message names the field otherwise. */
    @JsonCreator
    public static Objective of(String text) {
        if (text != null) {
            for (Objective o : values()) if (o.text().equals(text.trim().toLowerCase(Locale.ROOT))) return o;
        }
        throw new IllegalArgumentException("objective must be one of "
                + Arrays.stream(values()).map(Objective::text).collect(Collectors.joining(", ")) + ", got '" + text + "'");
    }

    /** The figure this objective ranks by (lower is better), or null when the measurement lacks it or did not end OK. */
    public Double figure(Measurement m) {
        if (!Status.OK.equals(m.status()) || m.stats() == null) return null;
        return switch (this) {
            case LATENCY -> m.stats().medianNs();
            case SUSTAINED -> m.sustainedNs();
            case ENERGY -> m.energyJ();
            case EDP -> m.energyJ() == null ? null : m.energyJ() * m.stats().medianNs() * 1e-9;
        };
    }
}

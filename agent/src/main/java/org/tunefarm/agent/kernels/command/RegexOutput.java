package org.tunefarm.agent.kernels.command;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Every match of the pattern's first group is one time in milliseconds; correctness is not reported. */
final class RegexOutput implements OutputFormat {
    private final Pattern pattern;

    RegexOutput(Pattern pattern) {
        if (pattern.matcher("").groupCount() < 1) throw new IllegalArgumentException("needs a capturing group around the time, e.g. time=([0-9.]+) ms");
        this.pattern = pattern;
    }

    @Override public Reading read(String stdout) {
        List<Double> times = new ArrayList<>();
        Matcher m = pattern.matcher(stdout);
        while (m.find()) {
            String g = m.group(1);
            double t;
            try {
                t = Double.parseDouble(g);
            } catch (NumberFormatException | NullPointerException e) {
                return Reading.failed("'" + g + "' matched by " + pattern + " is not a number");
            }
            if (!(t > 0) || Double.isInfinite(t)) return Reading.failed("time " + t + " ms is not a positive finite number");
            times.add(t);
        }
        if (times.isEmpty()) return Reading.failed("nothing in the output matches " + pattern);
        return new Reading(times, null, null, null);
    }
}

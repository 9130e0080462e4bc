package org.tunefarm.coordinator.strategy;

import java.util.Objects;

/**
 * What measuring a candidate gave: a time in milliseconds (lower is better), or a failure
 * (did not build, wrong answer, timed out, crashed) that counts as a trial but can never win.
 */
public record Result(double time, String failure) {

    public Result {
        if (failure == null && !(time >= 0 && Double.isFinite(time))) throw new IllegalArgumentException("an OK result needs a finite time >= 0, got " + time);
        if (failure != null) time = Double.NaN;
    }

    public static Result ok(double timeMs) {
        return new Result(timeMs, null);
    }

    public static Result failed(String why) {
        return new Result(Double.NaN, Objects.requireNonNull(why, "why"));
    }

    public boolean isOk() {
        return failure == null;
    }
}

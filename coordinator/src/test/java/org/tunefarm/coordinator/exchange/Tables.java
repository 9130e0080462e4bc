package org.tunefarm.coordinator.exchange;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Hand-written table documents for the exchange tests, in schema /1 or /2. */
final class Tables {
    private final List<String> entries = new ArrayList<>();
    private final List<String> classes = new ArrayList<>();

    /**
     * @param shape    e.g. {@code "K": 128, "M": 128, "N": 128}
     * @param params   e.g. {@code "TM": 32, "TN": 16}
     * @param defaults the default's parameters, or null
     */
    Tables entry(String deviceClass, String op, String shape, String dtype, String params, double medianNs, String defaults, Double defaultMedianNs) {
        return entry(deviceClass, "latency", op, shape, dtype, params, medianNs, defaults, defaultMedianNs);
    }

    Tables entry(String deviceClass, String objective, String op, String shape, String dtype, String params, double medianNs, String defaults, Double defaultMedianNs) {
        entries.add(String.format(Locale.ROOT, """
                {"deviceClass": "%s", "objective": "%s", "kernel": {"op": "%s", "shape": {%s}, "dtype": "%s"},
                 "params": {%s}, "defaultParams": %s,
                 "stats": {"medianNs": %s, "minNs": %s, "cv": 0.01, "samples": 5},
                 "gflops": null, "speedupOverDefault": %s, "temperatureC": null, "agentId": "a-1", "measuredAt": 1764770000000,
                 "sweepId": "s-1", "index": 7, "defaultMedianNs": %s, "defaultMeasuredAt": 1764769990000, "round": 0,
                 "finalMedians": {}, "boardSpread": null, "aFieldFromTheFuture": [1, 2]}""",
                deviceClass, objective, op, shape, dtype, params, defaults == null ? "null" : "{" + defaults + "}", medianNs, medianNs * 0.99,
                defaultMedianNs == null ? "null" : String.valueOf(defaultMedianNs / medianNs), defaultMedianNs == null ? "null" : String.valueOf(defaultMedianNs)));
        return this;
    }

    Tables profile(String deviceClass, String cpuModel) {
        classes.add(String.format(Locale.ROOT, """
                "%s": {"cpuModel": "%s", "microarchitecture": "Zen 4", "physicalCores": 2, "logicalCores": 2, "vectorBits": 512,
                       "jvmMajor": 25, "isa": "avx512", "gpus": [], "labels": {}}""", deviceClass, cpuModel.replace("\\", "\\\\").replace("\"", "\\\"")));
        return this;
    }

    String v2() {
        return "{\"schema\": \"tunefarm.table/2\", \"farmId\": \"8c0e5c1e-2f8a-4a52-9b7e-3f1f4b8f0a11\", \"generatedAt\": 1764770000000,"
                + " \"sweeps\": [\"s-1\"], \"classes\": {" + String.join(",", classes) + "}, \"entries\": [" + String.join(",", entries) + "]}";
    }

    /** The same entries as schema /1 wrote them: no farm id, classes, objective or default parameters. */
    String v1() {
        return "{\"schema\": \"tunefarm.table/1\", \"entries\": [" + String.join(",", entries).replaceAll("\"objective\": \"[a-z]+\",\\s*", "")
                .replaceAll("\"defaultParams\": (null|\\{[^}]*\\}),\\s*", "") + "]}";
    }
}

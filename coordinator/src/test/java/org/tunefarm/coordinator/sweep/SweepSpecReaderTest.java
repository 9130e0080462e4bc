package org.tunefarm.coordinator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Objective;

class SweepSpecReaderTest {

    static final String YAML = """
            name: sleep-smoke
            kernel: sleep
            shapes:
              - {unitUs: 100}
              - unitUs: 250
            space:
              a: [6, 4, 5]
              mode: [fast]
            constraints:
              - a + b <= 20
            strategy:
              name: exhaustive
              budget: 40
              seconds: 600
              seed: 7
            measure:
              minSamples: 3
              timeoutMs: 1000
            deviceClasses: [zen4-8c-jdk25]
            batchSize: 4
            """;

    static final String JSON = """
            {"name": "sleep-smoke", "kernel": "sleep", "shapes": [{"unitUs": 100}, {"unitUs": 250}],
             "space": {"a": [6, 4, 5], "mode": ["fast"]}, "constraints": ["a + b <= 20"],
             "strategy": {"name": "exhaustive", "budget": 40, "seconds": 600, "seed": 7},
             "measure": {"minSamples": 3, "timeoutMs": 1000}, "deviceClasses": ["zen4-8c-jdk25"], "batchSize": 4}
            """;

    @Test
    void validYamlSpecParses() {
        SweepSpec s = SweepSpecReader.read(YAML);
        assertEquals("sleep-smoke", s.name());
        assertEquals("sleep", s.kernel());
        assertEquals("fp32", s.dtype());
        assertEquals(List.of(Map.of("unitUs", 100), Map.of("unitUs", 250)), s.shapes());
        assertEquals(Map.of("a", List.of(6, 4, 5), "mode", List.of("fast")), s.space());
        assertEquals(List.of("a + b <= 20"), s.constraints());
        assertEquals(new SweepSpec.StrategySpec("exhaustive", 40, 600, 7, Map.of()), s.strategy());
        MeasureSettings d = MeasureSettings.DEFAULTS;
        assertEquals(new MeasureSettings(3, d.minSampleMs(), d.maxWarmupMs(), d.steadyTolerance(), 1000, d.seed()), s.measure());
        assertEquals(List.of("zen4-8c-jdk25"), s.deviceClasses());
        assertEquals(4, s.batchSize());
        assertEquals(2, s.keys().size());
    }

    @Test
    void jsonAndYamlOfTheSameSpecAgree() {
        assertEquals(SweepSpecReader.read(YAML), SweepSpecReader.read(JSON));
    }

    @Test
    void aMinimalSpecGetsDefaults() {
        SweepSpec s = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\n");
        assertEquals("sleep-sweep", s.name());
        assertEquals(Map.of(), s.space());
        assertEquals(org.tunefarm.coordinator.strategy.Strategies.DEFAULT, s.strategy().name(), "a sweep that names no strategy gets the default");
        assertEquals(MeasureSettings.DEFAULTS, s.measure());
        assertEquals(SweepSpec.AUTO_BATCH, s.batchSize(), "leases are sized by time unless the spec fixes them");
        assertEquals(SweepSpec.DEFAULT_LEASE_SECONDS, s.leaseSeconds());
        assertEquals(SweepSpec.AUTO_BATCH, SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nbatchSize: auto\nleaseSeconds: 3\n").batchSize());
        assertEquals(3.0, SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nleaseSeconds: 3\n").leaseSeconds());
        assertEquals("exhaustive", SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nstrategy: exhaustive\n").strategy().name());
    }

    @Test
    void aSweepTunesForLatencyUnlessItSaysOtherwise() {
        SweepSpec s = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\n");
        assertEquals(Objective.LATENCY, s.objective());
        assertEquals(0.0, s.sustainedSeconds());
        assertEquals(Fidelity.DEFAULT_COOLDOWN_TIMEOUT_MS, s.fidelity().cooldownTimeoutMs());
    }

    @Test
    void objectiveSustainedSecondsAndCooldownTimeoutAreRead() {
        SweepSpec s = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nobjective: Sustained\nsustainedSeconds: 2.5\n"
                + "measure: {cooldownTimeoutMs: 5000}\n");
        assertEquals(Objective.SUSTAINED, s.objective());
        assertEquals(2.5, s.sustainedSeconds());
        assertEquals(5000L, s.fidelity().cooldownTimeoutMs());
        assertEquals(SweepSpec.DEFAULT_SUSTAINED_SECONDS, SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nobjective: sustained\n").sustainedSeconds(),
                "a sustained sweep that names no duration gets the default");
        assertEquals(Objective.EDP, SweepSpecReader.read("{\"kernel\": \"sleep\", \"shapes\": [{\"unitUs\": 100}], \"objective\": \"edp\"}").objective());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown top-level field        | kernel: sleep\\nshapes: [{unitUs: 100}]\\nbudget: 5                         | budget
            missing kernel                 | shapes: [{unitUs: 100}]                                                  | kernel
            unknown kernel                 | kernel: fft\\nshapes: [{n: 1024}]                                        | kernel
            missing shapes                 | kernel: sleep                                                            | shapes
            empty shapes                   | kernel: sleep\\nshapes: []                                               | shapes
            shapes not a list              | kernel: sleep\\nshapes: {unitUs: 100}                                    | shapes
            unknown dimension              | kernel: sleep\\nshapes: [{unitUs: 100, depth: 3}]                        | shapes[0].depth
            missing dimension              | kernel: sleep\\nshapes: [{unitUs: 100}, {}]                              | shapes[1].unitUs
            negative dimension             | kernel: sleep\\nshapes: [{unitUs: -5}]                                   | shapes[0].unitUs
            zero dimension                 | kernel: sleep\\nshapes: [{unitUs: 0}]                                    | shapes[0].unitUs
            fractional dimension           | kernel: sleep\\nshapes: [{unitUs: 1.5}]                                  | shapes[0].unitUs
            text dimension                 | kernel: sleep\\nshapes: [{unitUs: big}]                                  | shapes[0].unitUs
            huge dimension                 | kernel: sleep\\nshapes: [{unitUs: 99999999999}]                          | shapes[0].unitUs
            dtype not implemented          | kernel: sleep\\ndtype: fp16\\nshapes: [{unitUs: 100}]                    | dtype
            space value outside domain     | kernel: sleep\\nshapes: [{unitUs: 100}]\\nspace: {a: [3, 99]}            | space.a
            space value of wrong kind      | kernel: sleep\\nshapes: [{unitUs: 100}]\\nspace: {mode: [3]}             | space.mode
            space list empty               | kernel: sleep\\nshapes: [{unitUs: 100}]\\nspace: {a: []}                 | space.a
            space value not a scalar       | kernel: sleep\\nshapes: [{unitUs: 100}]\\nspace: {a: [[1]]}              | space.a
            unknown parameter in space     | kernel: sleep\\nshapes: [{unitUs: 100}]\\nspace: {tileM: [8]}            | space.tileM
            nothing valid left             | kernel: sleep\\nshapes: [{unitUs: 100}]\\nspace: {a: [15], b: [15]}      | space
            constraint syntax error        | kernel: sleep\\nshapes: [{unitUs: 100}]\\nconstraints: ['a + * b']       | constraints
            constraint unknown name        | kernel: sleep\\nshapes: [{unitUs: 100}]\\nconstraints: ['c < 3']         | constraints
            constraint not a string        | kernel: sleep\\nshapes: [{unitUs: 100}]\\nconstraints: [[1]]             | constraints[0]
            unknown strategy               | kernel: sleep\\nshapes: [{unitUs: 100}]\\nstrategy: {name: anneal9}      | strategy.name
            unknown strategy short form    | kernel: sleep\\nshapes: [{unitUs: 100}]\\nstrategy: anneal9              | strategy.name
            unknown strategy field         | kernel: sleep\\nshapes: [{unitUs: 100}]\\nstrategy: {name: random, x: 1} | strategy.x
            negative budget                | kernel: sleep\\nshapes: [{unitUs: 100}]\\nstrategy: {budget: -1}         | strategy.budget
            unknown strategy option        | kernel: sleep\\nshapes: [{unitUs: 100}]\\nstrategy: {options: {t0: 1}}   | strategy.options.t0
            minSamples zero                | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {minSamples: 0}       | measure.minSamples
            minSamples too many            | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {minSamples: 1001}    | measure.minSamples
            minSamples not integer         | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {minSamples: 2.5}     | measure.minSamples
            steadyTolerance out of range   | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {steadyTolerance: 1.5} | measure.steadyTolerance
            steadyTolerance not a number   | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {steadyTolerance: x} | measure.steadyTolerance
            minSampleMs too small          | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {minSampleMs: 0}      | measure.minSampleMs
            unknown measure field          | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {repeats: 3}          | measure.repeats
            unknown objective              | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: fastest          | objective
            objective not text             | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: [latency]        | objective
            sustainedSeconds zero          | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: sustained\\nsustainedSeconds: 0 | sustainedSeconds
            sustainedSeconds negative      | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: sustained\\nsustainedSeconds: -5 | sustainedSeconds
            sustainedSeconds over an hour  | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: sustained\\nsustainedSeconds: 3601 | sustainedSeconds
            sustainedSeconds not a number  | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: sustained\\nsustainedSeconds: long | sustainedSeconds
            sustainedSeconds for latency   | kernel: sleep\\nshapes: [{unitUs: 100}]\\nsustainedSeconds: 30       | sustainedSeconds
            sustainedSeconds for energy    | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: energy\\nsustainedSeconds: 30 | sustainedSeconds
            sustained without finalists    | kernel: sleep\\nshapes: [{unitUs: 100}]\\nobjective: sustained\\nmeasure: {finalists: 0} | measure.finalists
            cooldownTimeoutMs negative     | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {cooldownTimeoutMs: -1} | measure.cooldownTimeoutMs
            cooldownTimeoutMs over an hour | kernel: sleep\\nshapes: [{unitUs: 100}]\\nmeasure: {cooldownTimeoutMs: 3600001} | measure.cooldownTimeoutMs
            batchSize zero                 | kernel: sleep\\nshapes: [{unitUs: 100}]\\nbatchSize: 0                   | batchSize
            batchSize over the most        | kernel: sleep\\nshapes: [{unitUs: 100}]\\nbatchSize: 1001                | batchSize
            batchSize unknown word         | kernel: sleep\\nshapes: [{unitUs: 100}]\\nbatchSize: many                | batchSize
            leaseSeconds with fixed batch  | kernel: sleep\\nshapes: [{unitUs: 100}]\\nbatchSize: 8\\nleaseSeconds: 5 | leaseSeconds
            leaseSeconds under a second    | kernel: sleep\\nshapes: [{unitUs: 100}]\\nleaseSeconds: 0.5             | leaseSeconds
            leaseSeconds not a number      | kernel: sleep\\nshapes: [{unitUs: 100}]\\nleaseSeconds: long            | leaseSeconds
            name not text                  | kernel: sleep\\nname: [x]\\nshapes: [{unitUs: 100}]                      | name
            malformed yaml                 | kernel: sleep\\nshapes: [{unitUs: 100}\\n  - : :                         | body
            malformed json                 | {"kernel": "sleep", "shapes": [                                          | body
            not a mapping                  | - kernel\\n- sleep                                                       | body
            blank                          | '   '                                                                    | body
            """)
    void badSpecIsRefusedNamingTheField(String what, String spec, String field) {
        String text = spec.replace("\\n", "\n");
        SpecException e = assertThrows(SpecException.class, () -> SweepSpecReader.read(text), what);
        assertEquals(field, e.field(), what + ": " + e.getMessage());
    }

    @Test
    void bodyOverTheSizeLimitIsRefused() {
        String big = "kernel: sleep\nshapes: [{unitUs: 100}]\nname: x\n" + "#".repeat(SweepSpecReader.MAX_BYTES) + "\n";
        assertEquals("body", assertThrows(SpecException.class, () -> SweepSpecReader.read(big)).field());
    }

    @Test
    void deeplyNestedYamlIsRefusedWithoutStackOverflow() {
        for (String deep : List.of(
                "kernel: sleep\nshapes: [{unitUs: 100}]\nspace: {a: " + "[".repeat(10_000) + "]".repeat(10_000) + "}\n",
                "[".repeat(10_000),
                "a:\n" + buildBlockNesting(200))) {
            SpecException e = assertThrows(SpecException.class, () -> SweepSpecReader.read(deep));
            assertEquals("body", e.field(), e.getMessage());
        }
    }

    @Test
    void deeplyNestedJsonIsRefusedWithoutStackOverflow() {
        for (String deep : List.of(
                "{\"kernel\": \"sleep\", \"space\": {\"a\": " + "[".repeat(10_000) + "]".repeat(10_000) + "}}",
                "{\"x\":" + "{\"y\":".repeat(10_000) + "1" + "}".repeat(10_001))) {
            SpecException e = assertThrows(SpecException.class, () -> SweepSpecReader.read(deep));
            assertEquals("body", e.field(), e.getMessage());
        }
    }

    private static String buildBlockNesting(int depth) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= depth; i++) b.append(" ".repeat(i)).append("k").append(i).append(":\n");
        return b.append(" ".repeat(depth + 1)).append("1\n").toString();
    }
}

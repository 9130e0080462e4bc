package org.tunefarm.agent.harness;

import org.tunefarm.measure.MeasureSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.agent.testkernels.RogueFamily;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Status;

class BatchRunnerTest {

    private static final MeasureSettings QUICK = new MeasureSettings(2, 0.5, 20, 0.1, 10_000, 11);
    private static final List<String> BEHAVIOURS = List.of("ok", "throw", "wrong", "invalid", "chatty", "nan", "ok");

    private static Batch batch(long seed) {
        List<BatchCandidate> cs = new ArrayList<>();
        for (int i = 0; i < BEHAVIOURS.size(); i++) cs.add(new BatchCandidate(100 + i, RogueFamily.params(BEHAVIOURS.get(i))));
        return new Batch("sweep-1", RogueFamily.key(), cs, QUICK.withSeed(seed));
    }

    private static List<Measurement> run(Batch batch, Sensors sensors) {
        BatchRunner runner = new BatchRunner(() -> Worker.inProcess(FamilyLookup.of(new RogueFamily())), sensors,
                "agent-7", "zen3-2c-avx256-jdk25-00000000", Clock.fixed(Instant.ofEpochMilli(1234), ZoneOffset.UTC));
        List<Measurement> out = new ArrayList<>();
        assertEquals(batch.candidates().size(), runner.run(batch, out::add));
        return out;
    }

    @Test
    void runOrderIsAPermutationFixedBySeed() {
        List<Integer> a = BatchRunner.runOrder(20, 7);
        assertEquals(a, BatchRunner.runOrder(20, 7));
        assertEquals(IntStream.range(0, 20).boxed().toList(), a.stream().sorted().toList());
        assertNotEquals(IntStream.range(0, 20).boxed().toList(), a, "shuffled");
        assertNotEquals(a, BatchRunner.runOrder(20, 8));
    }

    @Test
    void everyCandidateIsMeasuredInShuffledOrderDespiteFailures() {
        AtomicInteger reads = new AtomicInteger();
        Sensors counting = () -> new SensorReading(40.0 + reads.incrementAndGet(), null, null);
        List<Measurement> ms = run(batch(5), counting);

        assertEquals(BEHAVIOURS.size(), ms.size());
        List<Integer> expectedOrder = BatchRunner.runOrder(BEHAVIOURS.size(), 5);
        for (int position = 0; position < ms.size(); position++) {
            Measurement m = ms.get(position);
            assertEquals(position, m.order(), "reported as each finishes, in run order");
            assertEquals(100 + expectedOrder.get(position), m.index());
            String behaviour = BEHAVIOURS.get((int) m.index() - 100);
            Status expected = switch (behaviour) {
                case "ok", "chatty" -> Status.OK;
                case "throw" -> Status.CRASH;
                case "wrong", "nan" -> Status.WRONG_ANSWER;
                default -> Status.INVALID;
            };
            assertEquals(expected, m.status(), behaviour + ": " + m.detail());
            if (expected == Status.OK) assertEquals(2, m.stats().samples());
            else assertNull(m.stats());
            assertTrue(m.after().temperatureC() > m.before().temperatureC(), "sensors read around each candidate");
            assertEquals("agent-7", m.agentId());
            assertEquals("sweep-1", m.sweepId());
            assertEquals("zen3-2c-avx256-jdk25-00000000", m.deviceClass());
            assertEquals(1234, m.startedAt());
            assertEquals(1234, m.finishedAt());
        }
        assertNotEquals(IntStream.range(0, BEHAVIOURS.size()).boxed().toList(), expectedOrder, "the seed shuffles");
    }

    @Test
    void sameSeedGivesSameOrderAndAnotherSeedAnother() {
        Map<Long, Integer> first = orders(run(batch(5), Sensors.NONE));
        assertEquals(first, orders(run(batch(5), Sensors.NONE)));
        assertNotEquals(first, orders(run(batch(6), Sensors.NONE)));
    }

    @Test
    void failingSensorsAreRecordedAsAbsent() {
        Sensors broken = () -> {
            throw new IllegalStateException("i2c bus hung");
        };
        Measurement m = run(batch(1), broken).get(0);
        assertEquals(SensorReading.NONE, m.before());
        assertEquals(SensorReading.NONE, m.after());
    }

    private static Map<Long, Integer> orders(List<Measurement> ms) {
        Map<Long, Integer> m = new HashMap<>();
        for (Measurement x : ms) m.put(x.index(), x.order());
        return m;
    }

    @Test
    void finalistsAreMeasuredInterleavedAndRecordedWithTheirRound() {
        List<BatchCandidate> cs = List.of(new BatchCandidate(100, RogueFamily.params("ok")), new BatchCandidate(101, RogueFamily.params("ok")),
                new BatchCandidate(102, RogueFamily.params("wrong")));
        Batch finalists = new Batch("sweep-1", RogueFamily.key(), cs, QUICK, 2, org.tunefarm.measure.Fidelity.DEFAULTS);
        BatchRunner runner = new BatchRunner(() -> Worker.inProcess(FamilyLookup.of(new RogueFamily())), Sensors.NONE,
                "agent-7", "c", Clock.fixed(Instant.ofEpochMilli(1234), ZoneOffset.UTC));
        List<Measurement> out = new ArrayList<>();
        assertEquals(3, runner.run(finalists, out::add));
        assertEquals(List.of(0, 1, 2), out.stream().map(Measurement::order).toList());
        for (Measurement m : out) {
            assertEquals(2, m.round());
            assertTrue(m.detail().startsWith("finalist round 2, interleaved with 2 other(s)"), m.detail());
            assertEquals(m.index() == 102 ? Status.WRONG_ANSWER : Status.OK, m.status());
            assertTrue(m.recordId().endsWith("#r2"));
        }
    }
}

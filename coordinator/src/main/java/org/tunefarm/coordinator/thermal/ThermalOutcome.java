package org.tunefarm.coordinator.thermal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tunefarm.kernel.HeatModel;
import org.tunefarm.kernel.HeatSimSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * What {@code bench thermal} found, against what the heat model says.
 *
 * @param burstWinner          the table's latency winner (params)
 * @param sustainedWinner      the table's sustained winner
 * @param trueSustainedWinner  the model's: the candidate of the whole space with the fastest steady state ({@link HeatModel#steadyState})
 * @param sustainedWinnerCorrect the table's sustained winner is the model's
 * @param rankTauVsModel       Kendall's tau between the measured sustained times of the finalists and the model's steady-state times (1: same order)
 * @param sustainedFinalists   how many finalists were measured sustained
 * @param burstWinnerSustainedCallsPerSec     the burst winner's measured sustained throughput (calls/s), null when it was not a finalist
 * @param sustainedWinnerSustainedCallsPerSec the sustained winner's
 * @param burstWinnerModelCallsPerSec         the model's steady-state throughput of the burst winner
 * @param sustainedWinnerModelCallsPerSec     of the sustained winner
 * @param throttledRetaken     measurements the agent found throttled and took again after cooling
 * @param throttledFinal       measurements still throttled after their re-takes (status THROTTLED)
 * @param cooldownWaits        measurements the agent waited for the device to cool before
 * @param cooldownWaitedMs     how long those waits took together
 * @param traceLength          lines in the device's temperature trace (one per 20 ms tick)
 */
public record ThermalOutcome(String latencySweep, String sustainedSweep, Map<String, Object> burstWinner, Map<String, Object> sustainedWinner,
                             Map<String, Object> trueSustainedWinner, boolean sustainedWinnerCorrect, Double rankTauVsModel, int sustainedFinalists,
                             Double burstWinnerSustainedCallsPerSec, Double sustainedWinnerSustainedCallsPerSec,
                             Double burstWinnerModelCallsPerSec, Double sustainedWinnerModelCallsPerSec,
                             int throttledRetaken, int throttledFinal, int cooldownWaits, long cooldownWaitedMs, long traceLength, long seconds) {

    /** Whether the run shows what it is for: the burst and sustained winners differ, and the sustained one is the model's. */
    public boolean passed() {
        return sustainedWinnerCorrect && burstWinner != null && !burstWinner.equals(sustainedWinner);
    }

    static ThermalOutcome of(String latencySweep, String sustainedSweep, JsonNode table, List<Measurement> records, HeatModel model, KernelKey key,
                             List<Map<String, Object>> space, long traceLength, long seconds) {
        Map<String, Object> burst = winner(table, "latency");
        Map<String, Object> sustained = winner(table, "sustained");
        Map<String, Object> truth = space.stream().min(Comparator.comparingDouble(p -> HeatSimSpec.steadyState(model, key, p).callNs())).orElseThrow();
        List<Measurement> finals = records.stream().filter(m -> m.sweepId().equals(sustainedSweep) && m.round() > 0 && m.status() == Status.OK
                && m.sustainedNs() != null).toList();
        double[] measured = finals.stream().mapToDouble(Measurement::sustainedNs).toArray();
        double[] modelled = finals.stream().mapToDouble(m -> HeatSimSpec.steadyState(model, key, m.params()).callNs()).toArray();
        int retaken = 0, throttled = 0, waits = 0;
        long waited = 0;
        for (Measurement m : records) {
            if (m.detail() != null && m.detail().contains("after cooling")) retaken++;
            if (Status.THROTTLED.equals(m.status())) throttled++;
            if (m.thermal() != null && m.thermal().cooldownWaitMs() > 0) {
                waits++;
                waited += m.thermal().cooldownWaitMs();
            }
        }
        return new ThermalOutcome(latencySweep, sustainedSweep, burst, sustained, truth, truth.equals(sustained),
                finals.size() < 2 ? null : kendallTau(measured, modelled), finals.size(),
                callsPerSec(finals, burst), callsPerSec(finals, sustained),
                burst == null ? null : (Double) HeatSimSpec.steadyState(model, key, burst).callsPerSecond(),
                sustained == null ? null : (Double) HeatSimSpec.steadyState(model, key, sustained).callsPerSecond(),
                retaken, throttled, waits, waited, traceLength, seconds);
    }

    /** The params of the table's entry for this objective, as sorted map; null when the table has none. */
    private static Map<String, Object> winner(JsonNode table, String objective) {
        for (JsonNode e : table.path("entries")) {
            if (objective.equals(e.path("objective").asText("latency"))) {
                return new TreeMap<>(Protocol.JSON.convertValue(e.path("params"), Map.class));
            }
        }
        return null;
    }

    private static Double callsPerSec(List<Measurement> finals, Map<String, Object> params) {
        if (params == null) return null;
        return finals.stream().filter(m -> new TreeMap<>(m.params()).equals(params)).findFirst().map(m -> 1e9 / m.sustainedNs()).orElse(null);
    }

    /** Kendall's tau-b of two paired samples: +1 the same order, -1 reversed. */
    static double kendallTau(double[] a, double[] b) {
        long concordant = 0, discordant = 0, tiesA = 0, tiesB = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = i + 1; j < a.length; j++) {
                double x = Math.signum(a[i] - a[j]), y = Math.signum(b[i] - b[j]);
                if (x == 0 && y == 0) continue;
                if (x == 0) tiesA++;
                else if (y == 0) tiesB++;
                else if (x == y) concordant++;
                else discordant++;
            }
        }
        double n = Math.sqrt((double) (concordant + discordant + tiesA) * (concordant + discordant + tiesB));
        return n == 0 ? 0 : (concordant - discordant) / n;
    }
}

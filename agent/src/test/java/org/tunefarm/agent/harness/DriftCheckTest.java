package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The drift verdict on synthetic sample series: steady noisy ones pass, heating ones do not. */
class DriftCheckTest {

    private static final int SERIES = 2000;

    /** Samples around 1 ms with Gaussian noise of the given CV, each sample a further share slower. */
    private static double[] series(Random rnd, int n, double cv, double slopePerSample, double spikeShare) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = 1e6 * (1 + slopePerSample * i) * (1 + cv * rnd.nextGaussian());
            // Interference: a neighbour's time slice makes the odd sample much slower.
            if (rnd.nextDouble() < spikeShare) s[i] *= 1.3 + rnd.nextDouble();
        }
        return s;
    }

    private static double alarmRate(long seed, int n, double cv, double slope, double spikes) {
        Random rnd = new Random(seed);
        int alarms = 0;
        for (int k = 0; k < SERIES; k++) if (DriftCheck.verdict(series(rnd, n, cv, slope, spikes)) != null) alarms++;
        return (double) alarms / SERIES;
    }

    @Test
    void steadyNoisySeriesRarelyLookDrifting() {
        for (int n : new int[] {6, 10, 20, 50}) {
            for (double cv : new double[] {0.005, 0.02, 0.05, 0.10}) {
                double rate = alarmRate(n * 1000L + (long) (cv * 1000), n, cv, 0, 0);
                assertTrue(rate <= 0.01, "false alarms on steady series, n " + n + ", cv " + cv + ": " + rate);
                double spiky = alarmRate(n * 7919L + (long) (cv * 1000), n, cv, 0, 0.1);
                assertTrue(spiky <= 0.01, "false alarms with interference spikes, n " + n + ", cv " + cv + ": " + spiky);
            }
        }
    }

    @Test
    void aBoardHeatingUpDuringTheMeasurementIsSeen() {
        // 20% slower by the last sample: a clock falling as the board heats.
        for (int n : new int[] {10, 20, 50}) {
            double rate = alarmRate(n, n, 0.02, 0.2 / n, 0);
            assertTrue(rate >= 0.95, "heating series seen, n " + n + ": " + rate);
        }
        // A step: throttling started a third of the way in.
        double[] step = new double[12];
        for (int i = 0; i < step.length; i++) step[i] = i < 4 ? 1.0e6 + i : 1.4e6 + i;
        String why = DriftCheck.verdict(step);
        assertNotNull(why);
        assertTrue(why.contains("40% slower"), why);
    }

    @Test
    void aSmallDriftOrAFasterEndIsNotThrottling() {
        double[] down = new double[20];
        for (int i = 0; i < down.length; i++) down[i] = 1e6 * (1 - 0.01 * i);
        assertNull(DriftCheck.verdict(down), "getting faster is the JIT, not heat");
        double[] slight = new double[20];
        for (int i = 0; i < slight.length; i++) slight[i] = 1e6 * (1 + 0.002 * i);
        assertNull(DriftCheck.verdict(slight), "a steady 4% creep is under the threshold");
        assertNull(DriftCheck.verdict(new double[] {1, 2, 3, 4, 5}), "too few samples to say");
    }
}

package org.tunefarm.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RankingTest {

    @Test
    void identicalOrderGivesTauOneAndNoShift() {
        double[] a = {3, 1, 2, 5};
        double[] b = {30, 10, 20, 50};
        assertEquals(1.0, Ranking.kendallTau(a, b), 1e-12);
        assertEquals(0, Ranking.maxRankShift(a, b));
    }

    @Test
    void reversedOrderGivesTauMinusOne() {
        double[] a = {1, 2, 3, 4, 5};
        double[] b = {5, 4, 3, 2, 1};
        assertEquals(-1.0, Ranking.kendallTau(a, b), 1e-12);
        assertEquals(4, Ranking.maxRankShift(a, b));
    }

    @Test
    void oneAdjacentSwapAmongFourCostsOneDiscordantPairOfSix() {
        double[] a = {1, 2, 3, 4};
        double[] b = {1, 3, 2, 4};
        assertEquals((5 - 1) / 6.0, Ranking.kendallTau(a, b), 1e-12);
        assertEquals(1, Ranking.maxRankShift(a, b));
    }

    @Test
    void tiesCountAsNeitherWithTheTauBCorrection() {
        // Pairs: (0,1) tied in a; (0,2), (1,2) concordant. tau-b = 2 / sqrt((3-1) * 3).
        assertEquals(2 / Math.sqrt(6), Ranking.kendallTau(new double[] {1, 1, 2}, new double[] {1, 2, 3}), 1e-12);
        assertTrue(Double.isNaN(Ranking.kendallTau(new double[] {1, 1}, new double[] {1, 2})));
    }

    @Test
    void ranksAreAPermutationFastestFirst() {
        assertArrayEquals(new int[] {2, 0, 1}, Ranking.ranks(new double[] {9, 1, 5}));
        assertArrayEquals(new int[] {0, 1}, Ranking.ranks(new double[] {4, 4}), "ties keep item order");
    }

    @Test
    void mismatchedOrTooShortInputsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Ranking.kendallTau(new double[] {1, 2}, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> Ranking.kendallTau(new double[] {1}, new double[] {1}));
    }
}

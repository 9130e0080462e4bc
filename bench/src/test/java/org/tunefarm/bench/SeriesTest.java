package org.tunefarm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class SeriesTest {

    @Test
    void ratiosArePerRepetitionAndSummarisedByMedianAndSpread() {
        Series tuned = of(10.0, 12.0, 9.0), blas = of(10.0, 8.0, 10.0);
        Series r = Series.ratio(tuned, blas);
        assertEquals(1.0, r.median());
        assertEquals(0.9, r.min());
        assertEquals(1.5, r.max());
        assertEquals(2.5, of(1.0, 2.0, 3.0, 4.0).median(), "an even count takes the middle two");
    }

    @Test
    void oneFailedRepetitionMakesEverySummaryUnknown() {
        Series tuned = of(10.0, null, 9.0);
        assertNull(tuned.median());
        Series r = Series.ratio(tuned, of(1.0, 1.0, 1.0));
        assertNull(r.median());
        assertNull(r.min());
        assertNull(r.max());
    }

    private static Series of(Double... vs) {
        Series s = new Series();
        for (Double v : vs) s.add(v);
        return s;
    }
}

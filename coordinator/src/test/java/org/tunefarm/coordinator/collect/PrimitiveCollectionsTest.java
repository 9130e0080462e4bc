package org.tunefarm.coordinator.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The primitive collections answer as the JDK's boxed ones do, over many random operations that make them grow. */
class PrimitiveCollectionsTest {
    /** Keys as a search sees them (small dense indices, the baseline's -1) and the edges of a long, the free marker among them. */
    private static long key(SplittableRandom r) {
        return switch (r.nextInt(6)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> -1;
            case 3 -> r.nextLong();
            default -> r.nextInt(50_000);
        };
    }

    @Test void aLongSetAnswersAsAHashSet() {
        for (long seed = 0; seed < 20; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            LongSet mine = new LongSet();
            Set<Long> theirs = new HashSet<>();
            for (int op = 0; op < 20_000; op++) {
                long k = key(r);
                if (r.nextBoolean()) assertEquals(theirs.add(k), mine.add(k), "add " + k);
                else assertEquals(theirs.contains(k), mine.contains(k), "contains " + k);
                assertEquals(theirs.size(), mine.size());
            }
        }
    }

    @Test void aLongDoubleMapAnswersAsAHashMap() {
        for (long seed = 0; seed < 20; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            LongDoubleMap mine = new LongDoubleMap();
            Map<Long, Double> theirs = new HashMap<>();
            for (int op = 0; op < 20_000; op++) {
                long k = key(r);
                double v = r.nextInt(4) == 0 ? Double.NaN : r.nextDouble();
                switch (r.nextInt(4)) {
                    case 0 -> {
                        mine.put(k, v);
                        theirs.put(k, v);
                    }
                    case 1 -> assertEquals(theirs.putIfAbsent(k, v) == null, mine.putIfAbsent(k, v), "putIfAbsent " + k);
                    case 2 -> assertEquals(theirs.containsKey(k), mine.containsKey(k), "containsKey " + k);
                    default -> assertEquals(theirs.getOrDefault(k, -7.0), mine.get(k, -7.0), "get " + k);
                }
                assertEquals(theirs.size(), mine.size());
            }
            Map<Long, Double> seen = new HashMap<>();
            mine.forEach((k, v) -> assertEquals(null, seen.put(k, v), "forEach hands " + k + " twice"));
            assertEquals(theirs, seen);
        }
    }

    @Test void aLongListInsertsInPlaceAndReadsAsAList() {
        SplittableRandom r = new SplittableRandom(3);
        LongList mine = new LongList();
        List<Long> theirs = new ArrayList<>();
        List<Long> view = mine.view();
        for (int op = 0; op < 5_000; op++) {
            long v = key(r);
            int at = r.nextInt(theirs.size() + 1);
            mine.insert(at, v);
            theirs.add(at, v);
        }
        assertEquals(theirs, view);
        assertThrows(IndexOutOfBoundsException.class, () -> mine.get(theirs.size()));
        assertThrows(IndexOutOfBoundsException.class, () -> mine.insert(theirs.size() + 1, 0));
        assertThrows(UnsupportedOperationException.class, () -> view.add(1L));
    }
}

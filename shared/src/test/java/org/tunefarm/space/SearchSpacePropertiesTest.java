package org.tunefarm.space;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Properties of indexing, enumeration, partitioning and neighbourhoods over random small spaces. */
class SearchSpacePropertiesTest {

    /**
     * Up to 5 parameters of up to 4 values; every third one is a string parameter. The constraint
     * {@code (p0 + p1 ...) % m != r} over the integer parameters leaves a random subset valid.
     */
    @Provide
    Arbitrary<SearchSpace> spaces() {
        Arbitrary<List<Set<Integer>>> domains = Arbitraries.integers().between(-20, 20).set().ofMinSize(1).ofMaxSize(4)
                .list().ofMinSize(1).ofMaxSize(5);
        return Combinators.combine(domains, Arbitraries.integers().between(2, 4), Arbitraries.integers().between(0, 3))
                .as((ds, m, r) -> {
                    List<Parameter> ps = new ArrayList<>();
                    List<String> ints = new ArrayList<>();
                    for (int i = 0; i < ds.size(); i++) {
                        List<Object> values = new ArrayList<>(ds.get(i));
                        if (i % 3 == 2) {
                            values = values.stream().map(v -> (Object) ("s" + v)).toList();
                        } else {
                            ints.add("p" + i);
                        }
                        ps.add(new Parameter("p" + i, values));
                    }
                    return SearchSpace.of(ps, List.of("(" + String.join(" + ", ints) + ") % " + m + " != " + r));
                });
    }

    @Property
    void indexChoicesAndConfigAreABijection(@ForAll("spaces") SearchSpace space) {
        for (long i = 0; i < space.size(); i++) {
            int[] choices = space.choices(i);
            assertEquals(i, space.index(choices));
            Map<String, Object> config = space.config(i);
            assertEquals(i, space.index(config));
            assertEquals(space.dimensions(), config.size());
            for (int p = 0; p < choices.length; p++) {
                assertTrue(choices[p] >= 0 && choices[p] < space.parameters().get(p).size());
                assertEquals(space.value(choices, p), config.get(space.parameters().get(p).name()));
            }
            if (i > 0) assertTrue(space.index(choices) > space.index(space.choices(i - 1)));
        }
    }

    @Property
    void validIndicesYieldsExactlyTheValidPointsAscending(@ForAll("spaces") SearchSpace space,
                                                          @ForAll @IntRange(min = 0, max = 100) int cut) {
        long from = Math.min(cut, space.size());
        assertEquals(bruteForceValid(space, 0, space.size()), drain(space.validIndices()));
        assertEquals(bruteForceValid(space, from, space.size()), drain(space.validIndices(from, space.size())));
        assertEquals(space.countValid(), bruteForceValid(space, 0, space.size()).size());
    }

    @Property
    void partitionCoversEveryValidPointOnceAndNoRangeHoldsMoreThanN(@ForAll("spaces") SearchSpace space,
                                                                     @ForAll @IntRange(min = 1, max = 12) int n) {
        List<SearchSpace.IndexRange> ranges = space.partition(n);
        List<Long> covered = new ArrayList<>();
        long expectedFrom = 0;
        for (SearchSpace.IndexRange r : ranges) {
            assertEquals(expectedFrom, r.from(), "ranges are contiguous and disjoint");
            assertTrue(r.from() < r.to());
            List<Long> inside = drain(space.validIndices(r.from(), r.to()));
            assertEquals(inside.size(), r.validCount());
            assertTrue(r.validCount() >= 1 && r.validCount() <= n, r.toString());
            covered.addAll(inside);
            expectedFrom = r.to();
        }
        if (!ranges.isEmpty()) assertEquals(space.size(), expectedFrom);
        assertEquals(drain(space.validIndices()), covered);
    }

    @Property
    void neighboursAreExactlyTheValidPointsOneStepAway(@ForAll("spaces") SearchSpace space,
                                                       @ForAll @IntRange(min = 0, max = 1023) int at) {
        long index = at % space.size();
        int[] here = space.choices(index);
        List<Long> expected = new ArrayList<>();
        for (long j = 0; j < space.size(); j++) {
            int[] there = space.choices(j);
            int changed = 0;
            int distance = 0;
            for (int p = 0; p < here.length; p++) {
                if (here[p] != there[p]) changed++;
                distance += Math.abs(here[p] - there[p]);
            }
            if (changed == 1 && distance == 1 && space.isValid(j)) expected.add(j);
        }
        List<Long> actual = new ArrayList<>(space.neighbours(index));
        actual.sort(null);
        assertEquals(expected, actual);
    }

    @Property
    void choicesRoundTripThroughIndex(@ForAll("spaces") SearchSpace space, @ForAll @IntRange(min = 0, max = 1023) int at) {
        int[] choices = space.choices(at % space.size());
        assertArrayEquals(choices, space.choices(space.index(choices)));
    }

    private static List<Long> bruteForceValid(SearchSpace space, long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long i = from; i < to; i++) if (space.isValid(i)) out.add(i);
        return out;
    }

    private static List<Long> drain(Iterator<Long> it) {
        List<Long> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}

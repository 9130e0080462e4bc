package org.tunefarm.table;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One measured trade-off of time and energy: a candidate's median time per call and joules per call,
 * with where it was measured. A latency table entry keeps the non-dominated ones of its class and
 * kernel ({@link #frontier}): the candidates that no other beats on both time and energy.
 */
public record ParetoPoint(Map<String, Object> params, double medianNs, double energyJ, String sweepId, long index, String agentId) {

    public ParetoPoint {
        params = Map.copyOf(params);
    }

    /** A total order on every field, so a set of points has one sorted form whichever way it was built. */
    static final Comparator<ParetoPoint> ORDER = Comparator.comparingDouble(ParetoPoint::medianNs)
            .thenComparingDouble(ParetoPoint::energyJ)
            .thenComparing(ParetoPoint::sweepId, Comparator.nullsFirst(Comparator.<String>naturalOrder()))
            .thenComparingLong(ParetoPoint::index)
            .thenComparing(ParetoPoint::agentId, Comparator.nullsFirst(Comparator.<String>naturalOrder()))
            .thenComparing(p -> new TreeMap<>(p.params()).toString());

    /** Whether this point is no worse than {@code o} on both figures and better on one. */
    boolean dominates(ParetoPoint o) {
        return medianNs <= o.medianNs && energyJ <= o.energyJ && (medianNs < o.medianNs || energyJ < o.energyJ);
    }

    /**
     * The non-dominated points of {@code points}, fastest first. A function of the set alone, and
     * frontier(A ∪ B) = frontier(frontier(A) ∪ frontier(B)) (a dominated point is dominated by a
     * point of the frontier), which keeps the table's merge commutative, associative and idempotent.
     * Points with equal figures and different provenance are all kept.
     */
    public static List<ParetoPoint> frontier(Collection<ParetoPoint> points) {
        TreeSet<ParetoPoint> sorted = new TreeSet<>(ORDER);
        sorted.addAll(points);
        List<ParetoPoint> out = new ArrayList<>();
        // Sorted by time then energy: a point survives when its energy is strictly below every
        // faster point's, or it ties the least energy so far at the same time (an equal point).
        double leastEnergy = Double.POSITIVE_INFINITY;
        double leastEnergyAtNs = Double.NaN;
        for (ParetoPoint p : sorted) {
            boolean equalToBest = p.energyJ == leastEnergy && p.medianNs == leastEnergyAtNs;
            if (p.energyJ < leastEnergy || equalToBest) {
                out.add(p);
                leastEnergy = p.energyJ;
                leastEnergyAtNs = p.medianNs;
            }
        }
        return List.copyOf(out);
    }
}

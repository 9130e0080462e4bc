package org.tunefarm.space;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * A finite space of kernel configurations: ordered parameters with finite domains, and
 * constraints that select the valid points. A point is addressed by its <em>index</em>, the
 * mixed-radix number whose digits are the parameters' choices (the first parameter is the most
 * significant digit), so a space of 10^12 points is never materialised: enumeration, sampling,
 * neighbourhoods and partitioning all work on indices.
 */
public final class SearchSpace {

    private final List<Parameter> parameters;
    private final List<Constraint> constraints;
    private final Map<String, Integer> positions = new LinkedHashMap<>();
    private final long size;
    /** weight[i] = product of the domain sizes of parameters after i. */
    private final long[] weights;

    public SearchSpace(List<Parameter> parameters, List<Constraint> constraints) {
        this.parameters = List.copyOf(parameters);
        this.constraints = List.copyOf(constraints);
        if (this.parameters.isEmpty()) throw new IllegalArgumentException("a search space needs at least one parameter");
        for (int i = 0; i < this.parameters.size(); i++) {
            if (positions.put(this.parameters.get(i).name(), i) != null) {
                throw new IllegalArgumentException("parameter '" + this.parameters.get(i).name() + "' is declared twice");
            }
        }
        weights = new long[this.parameters.size()];
        long w = 1;
        for (int i = this.parameters.size() - 1; i >= 0; i--) {
            weights[i] = w;
            try {
                w = Math.multiplyExact(w, this.parameters.get(i).size());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("search space has more than 2^63 points", e);
            }
        }
        size = w;
    }

    /** Builds a space whose constraints are expressions over the parameter names. */
    public static SearchSpace of(List<Parameter> parameters, List<String> constraintExpressions) {
        List<Constraint> cs = new ArrayList<>();
        for (String e : constraintExpressions) cs.add(Expressions.parse(e, parameters));
        return new SearchSpace(parameters, cs);
    }

    public List<Parameter> parameters() { return parameters; }

    public List<Constraint> constraints() { return constraints; }

    /** Number of points, valid or not. */
    public long size() { return size; }

    public int dimensions() { return parameters.size(); }

    public Parameter parameter(String name) {
        Integer p = positions.get(name);
        if (p == null) throw new IllegalArgumentException("unknown parameter '" + name + "'");
        return parameters.get(p);
    }

    /** Position of a parameter, or -1. */
    public int position(String name) {
        return positions.getOrDefault(name, -1);
    }

    public int[] choices(long index) {
        checkIndex(index);
        int[] c = new int[parameters.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = (int) (index / weights[i]);
            index %= weights[i];
        }
        return c;
    }

    public long index(int[] choices) {
        if (choices.length != parameters.size()) throw new IllegalArgumentException("expected " + parameters.size() + " choices");
        long idx = 0;
        for (int i = 0; i < choices.length; i++) {
            if (choices[i] < 0 || choices[i] >= parameters.get(i).size()) {
                throw new IllegalArgumentException("choice " + choices[i] + " out of range for '" + parameters.get(i).name() + "'");
            }
            idx += choices[i] * weights[i];
        }
        return idx;
    }

    public Object value(int[] choices, int parameter) {
        return parameters.get(parameter).values().get(choices[parameter]);
    }

    /** The configuration at an index, as parameter name to value in declaration order. */
    public Map<String, Object> config(long index) {
        int[] c = choices(index);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < c.length; i++) m.put(parameters.get(i).name(), value(c, i));
        return Collections.unmodifiableMap(m);
    }

    /**
     * The index of a configuration given as name to value. Every parameter must be present with
     * a value from its domain, and no other name may appear.
     *
     * @throws IllegalArgumentException naming the offending parameter
     */
    public long index(Map<String, ?> config) {
        for (String k : config.keySet()) {
            if (!positions.containsKey(k)) throw new IllegalArgumentException("unknown parameter '" + k + "'");
        }
        int[] c = new int[parameters.size()];
        for (int i = 0; i < c.length; i++) {
            Parameter p = parameters.get(i);
            Object v = config.get(p.name());
            if (v == null) throw new IllegalArgumentException("parameter '" + p.name() + "' is missing");
            int choice = p.choiceOf(v);
            if (choice < 0) throw new IllegalArgumentException("parameter '" + p.name() + "': " + v + " is not in its domain " + p.values());
            c[i] = choice;
        }
        return index(c);
    }

    /**
     * The index of a configuration when it is a valid point of this space; empty when a value is
     * outside its (perhaps narrowed) domain or a constraint removes it. For points picked for
     * another space, as a family's seeds are.
     */
    public OptionalLong validIndex(Map<String, ?> config) {
        long i;
        try {
            i = index(config);
        } catch (IllegalArgumentException notInThisSpace) {
            return OptionalLong.empty();
        }
        return isValid(i) ? OptionalLong.of(i) : OptionalLong.empty();
    }

    public boolean isValid(int[] choices) {
        for (Constraint c : constraints) if (!c.test(choices, this)) return false;
        return true;
    }

    public boolean isValid(long index) {
        return isValid(choices(index));
    }

    /** The first constraint a point breaks, or null when it is valid. */
    public Constraint violated(long index) {
        int[] c = choices(index);
        for (Constraint k : constraints) if (!k.test(c, this)) return k;
        return null;
    }

    /** Lazily iterates the valid indices in [from, to), ascending. */
    public Iterator<Long> validIndices(long from, long to) {
        if (from < 0 || to > size || from > to) throw new IllegalArgumentException("range [" + from + ", " + to + ") outside [0, " + size + ")");
        return new Iterator<>() {
            long next = advance(from);

            private long advance(long i) {
                while (i < to && !isValid(i)) i++;
                return i;
            }

            @Override public boolean hasNext() { return next < to; }

            @Override public Long next() {
                if (next >= to) throw new NoSuchElementException();
                long r = next;
                next = advance(next + 1);
                return r;
            }
        };
    }

    public Iterator<Long> validIndices() {
        return validIndices(0, size);
    }

    /** Counts the valid points by enumeration; meant for spaces small enough to walk. */
    public long countValid() {
        long n = 0;
        for (Iterator<Long> it = validIndices(); it.hasNext(); it.next()) n++;
        return n;
    }

    /**
     * A uniformly random valid index, by rejection: every point is equally likely to be drawn
     * and invalid draws are retried. Empty after {@code maxTries} invalid draws (a space whose
     * valid fraction is tiny should be enumerated instead).
     */
    public OptionalLong sample(SplittableRandom random, int maxTries) {
        for (int t = 0; t < maxTries; t++) {
            long i = random.nextLong(size);
            if (isValid(i)) return OptionalLong.of(i);
        }
        return OptionalLong.empty();
    }

    /**
     * Splits the index range into contiguous ranges that each hold at most {@code batchSize}
     * valid points, walking the space once. Together the ranges cover every valid point exactly once.
     */
    public List<IndexRange> partition(int batchSize) {
        if (batchSize <= 0) throw new IllegalArgumentException("batchSize must be positive");
        List<IndexRange> out = new ArrayList<>();
        long start = 0;
        int count = 0;
        for (long i = 0; i < size; i++) {
            if (!isValid(i)) continue;
            if (count == batchSize) {
                out.add(new IndexRange(start, i, count));
                start = i;
                count = 0;
            }
            count++;
        }
        if (count > 0) out.add(new IndexRange(start, size, count));
        return out;
    }

    /** The valid points that differ from {@code index} in exactly one parameter by one step. */
    public List<Long> neighbours(long index) {
        int[] c = choices(index);
        List<Long> out = new ArrayList<>();
        for (int p = 0; p < c.length; p++) {
            for (int d = -1; d <= 1; d += 2) {
                int v = c[p] + d;
                if (v < 0 || v >= parameters.get(p).size()) continue;
                long n = index + d * weights[p];
                int old = c[p];
                c[p] = v;
                if (isValid(c)) out.add(n);
                c[p] = old;
            }
        }
        return out;
    }

    /**
     * A space with the same parameters, restricted to the given values and extra constraints.
     * Each narrowed domain keeps this space's order (not the order given), so "one step" still
     * means the same thing to {@link #neighbours}.
     *
     * @throws IllegalArgumentException naming the parameter, for an unknown name or a value outside its domain
     */
    public SearchSpace narrow(Map<String, List<Object>> domains, List<String> extraConstraints) {
        // Nothing to narrow: the same space, so a replayed space keeps its membership constraint
        // as such (strategies list a replayed space's points from it instead of sampling blindly).
        if (domains.isEmpty() && extraConstraints.isEmpty()) return this;
        for (String k : domains.keySet()) {
            if (!positions.containsKey(k)) throw new IllegalArgumentException("space." + k + ": unknown parameter");
        }
        List<Parameter> ps = new ArrayList<>();
        int[][] widerChoice = new int[parameters.size()][];
        for (int i = 0; i < parameters.size(); i++) {
            Parameter p = parameters.get(i);
            List<Object> values = domains.get(p.name());
            boolean[] keep = new boolean[p.size()];
            if (values == null) {
                Arrays.fill(keep, true);
            } else {
                for (Object v : values) {
                    int c = p.choiceOf(v);
                    if (c < 0) throw new IllegalArgumentException("space." + p.name() + ": " + v + " is not in its domain " + p.values());
                    keep[c] = true;
                }
            }
            List<Object> kept = new ArrayList<>();
            widerChoice[i] = new int[p.size()];
            for (int c = 0; c < p.size(); c++) {
                if (!keep[c]) continue;
                widerChoice[i][kept.size()] = c;
                kept.add(p.values().get(c));
            }
            widerChoice[i] = Arrays.copyOf(widerChoice[i], kept.size());
            ps.add(kept.size() == p.size() ? p : new Parameter(p.name(), kept));
        }
        // Parsed expressions are re-parsed against the narrowed domains; any other constraint (a
        // replayed space's membership set, say) is asked about the corresponding point of this space.
        List<Constraint> cs = new ArrayList<>();
        for (Constraint c : constraints) {
            cs.add(c instanceof ParsedConstraint ? Expressions.parse(c.text(), ps) : new NarrowedConstraint(c, this, widerChoice));
        }
        for (String e : extraConstraints) cs.add(Expressions.parse(e, ps));
        return new SearchSpace(ps, cs);
    }

    private void checkIndex(long index) {
        if (index < 0 || index >= size) throw new IllegalArgumentException("index " + index + " outside [0, " + size + ")");
    }

    @Override public String toString() {
        return "SearchSpace" + parameters.stream().map(p -> p.name() + p.values()).toList() + " where " + constraints.stream().map(Constraint::text).toList();
    }

    @Override public boolean equals(Object o) {
        return o instanceof SearchSpace s && s.parameters.equals(parameters)
                && s.constraints.stream().map(Constraint::text).toList().equals(constraints.stream().map(Constraint::text).toList());
    }

    @Override public int hashCode() {
        return Objects.hash(parameters, constraints.stream().map(Constraint::text).toList());
    }

    /** A contiguous range of indices [from, to) holding {@code validCount} valid points. */
    public record IndexRange(long from, long to, int validCount) {}
}

package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Gradient-boosted regression trees for squared error: the cost model of {@link ModelGuided}.
 * Written here rather than taken from XGBoost4J because the model sees a few hundred rows of a
 * dozen features, where a pure-Java fit takes milliseconds, while XGBoost4J would add a Scala
 * runtime and a native library per platform to a jar that also runs on boards and phones.
 * Trees grow level by level with exact greedy splits over features presorted once per fit,
 * so each level costs one pass over rows times features.
 */
final class BoostedTrees {

    /** How to fit: number of trees, their depth, shrinkage, smallest leaf, row subsampling. */
    record Params(int trees, int depth, double rate, int minLeaf, double subsample) {}

    /** One tree in flat arrays; feature -1 marks a leaf. */
    private record Tree(int[] feature, double[] threshold, int[] left, int[] right, double[] value) {
        double predict(double[] x) {
            int n = 0;
            while (feature[n] >= 0) n = x[feature[n]] <= threshold[n] ? left[n] : right[n];
            return value[n];
        }
    }

    private final double base;
    private final Tree[] trees;

    private BoostedTrees(double base, Tree[] trees) {
        this.base = base;
        this.trees = trees;
    }

    double predict(double[] x) {
        double s = base;
        for (Tree t : trees) s += t.predict(x);
        return s;
    }

    /** Predictions for many rows, tree by tree so each tree's arrays stay in cache. */
    double[] predict(double[][] rows) {
        double[] out = new double[rows.length];
        Arrays.fill(out, base);
        for (Tree t : trees) for (int j = 0; j < rows.length; j++) out[j] += t.predict(rows[j]);
        return out;
    }

    static BoostedTrees fit(double[][] x, double[] y, Params p, SplittableRandom rng) {
        int n = y.length;
        double base = Arrays.stream(y).average().orElse(0);
        if (n == 0) return new BoostedTrees(0, new Tree[0]);
        int d = x[0].length;
        int[][] order = new int[d][];
        for (int f = 0; f < d; f++) {
            final int ff = f;
            order[f] = IntStream.range(0, n).boxed().sorted(Comparator.comparingDouble(i -> x[i][ff])).mapToInt(Integer::intValue).toArray();
        }
        double[] pred = new double[n];
        Arrays.fill(pred, base);
        double[] residual = new double[n];
        Tree[] trees = new Tree[p.trees()];
        for (int t = 0; t < p.trees(); t++) {
            for (int i = 0; i < n; i++) residual[i] = y[i] - pred[i];
            trees[t] = grow(x, residual, order, p, rng);
            for (int i = 0; i < n; i++) pred[i] += trees[t].predict(x[i]);
        }
        return new BoostedTrees(base, trees);
    }

    private static Tree grow(double[][] x, double[] r, int[][] order, Params p, SplittableRandom rng) {
        int n = r.length, d = order.length;
        int[] nodeOf = new int[n];
        for (int i = 0; i < n; i++) nodeOf[i] = p.subsample() >= 1 || rng.nextDouble() < p.subsample() ? 0 : -1;
        List<int[]> links = new ArrayList<>();   // {feature, left, right} per node
        List<Double> thresholds = new ArrayList<>();
        links.add(new int[] {-1, -1, -1});
        thresholds.add(0.0);
        int[] active = {0};
        for (int level = 0; level < p.depth() && active.length > 0; level++) {
            int k = active.length;
            int[] slotOf = new int[links.size()];
            Arrays.fill(slotOf, -1);
            for (int s = 0; s < k; s++) slotOf[active[s]] = s;
            double[] cnt = new double[k], sum = new double[k];
            for (int i = 0; i < n; i++) {
                if (nodeOf[i] < 0 || slotOf[nodeOf[i]] < 0) continue;
                cnt[slotOf[nodeOf[i]]]++;
                sum[slotOf[nodeOf[i]]] += r[i];
            }
            double[] bestGain = new double[k], bestThr = new double[k];
            int[] bestF = new int[k];
            Arrays.fill(bestF, -1);
            Arrays.fill(bestGain, 1e-12);
            double[] cL = new double[k], sL = new double[k], last = new double[k];
            for (int f = 0; f < d; f++) {
                Arrays.fill(cL, 0);
                Arrays.fill(sL, 0);
                for (int i : order[f]) {
                    int node = nodeOf[i];
                    if (node < 0) continue;
                    int s = slotOf[node];
                    if (s < 0) continue;
                    double v = x[i][f];
                    if (cL[s] >= p.minLeaf() && cnt[s] - cL[s] >= p.minLeaf() && v > last[s]) {
                        double sr = sum[s] - sL[s];
                        double gain = sL[s] * sL[s] / cL[s] + sr * sr / (cnt[s] - cL[s]) - sum[s] * sum[s] / cnt[s];
                        if (gain > bestGain[s]) {
                            bestGain[s] = gain;
                            bestF[s] = f;
                            bestThr[s] = (last[s] + v) / 2;
                        }
                    }
                    cL[s]++;
                    sL[s] += r[i];
                    last[s] = v;
                }
            }
            List<Integer> next = new ArrayList<>();
            for (int s = 0; s < k; s++) {
                if (bestF[s] < 0) continue;
                int node = active[s];
                int left = links.size();
                links.add(new int[] {-1, -1, -1});
                links.add(new int[] {-1, -1, -1});
                thresholds.add(0.0);
                thresholds.add(0.0);
                links.set(node, new int[] {bestF[s], left, left + 1});
                thresholds.set(node, bestThr[s]);
                next.add(left);
                next.add(left + 1);
            }
            for (int i = 0; i < n; i++) {
                int node = nodeOf[i];
                if (node < 0 || node >= slotOf.length || slotOf[node] < 0) continue;
                int[] l = links.get(node);
                if (l[0] >= 0) nodeOf[i] = x[i][l[0]] <= thresholds.get(node) ? l[1] : l[2];
            }
            active = next.stream().mapToInt(Integer::intValue).toArray();
        }
        int m = links.size();
        double[] cnt = new double[m], sum = new double[m];
        for (int i = 0; i < n; i++) {
            if (nodeOf[i] < 0) continue;
            cnt[nodeOf[i]]++;
            sum[nodeOf[i]] += r[i];
        }
        int[] feature = new int[m], left = new int[m], right = new int[m];
        double[] threshold = new double[m], value = new double[m];
        for (int j = 0; j < m; j++) {
            int[] l = links.get(j);
            feature[j] = l[0];
            left[j] = l[1];
            right[j] = l[2];
            threshold[j] = thresholds.get(j);
            value[j] = cnt[j] > 0 ? p.rate() * sum[j] / cnt[j] : 0;
        }
        return new Tree(feature, threshold, left, right, value);
    }
}

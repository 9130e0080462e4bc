package org.tunefarm.agent.kernels.conv;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.gemm.PackedGemm;
import org.tunefarm.kernel.Conv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.SearchSpace;

/**
 * Prints GFLOP/s of the default configuration and of hand-picked variants for MobileNetV2
 * layers, as ratios over the default measured in the same run. Not a test; run with
 * {@code java --add-modules jdk.incubator.vector -cp agent/target/classes:agent/target/test-classes:shared/target/classes
 * org.tunefarm.agent.kernels.conv.ConvProbe}. {@code -Dsample=N} also tries N random valid points
 * of each conv2d layer's space.
 */
public final class ConvProbe {

    private static final Conv2dFamily CONV = new Conv2dFamily();
    private static final DepthwiseConv2dFamily DEPTHWISE = new DepthwiseConv2dFamily();

    public static void main(String[] args) {
        System.out.printf("lanes=%d, JVM %s %s%n", PackedGemm.lanes(), System.getProperty("java.vendor"), System.getProperty("java.version"));
        conv("conv1 3->32 3x3/2 @224", Conv2dFamilyTest.conv(1, 3, 224, 224, 32, 3, 3, 2, 1, 1));
        conv("block2-expand 16->96 1x1 @112", Conv2dFamilyTest.conv(1, 16, 112, 112, 96, 1, 1, 1, 0, 1));
        conv("block8-expand 64->384 1x1 @14", Conv2dFamilyTest.conv(1, 64, 14, 14, 384, 1, 1, 1, 0, 1));
        conv("conv-last 320->1280 1x1 @7", Conv2dFamilyTest.conv(1, 320, 7, 7, 1280, 1, 1, 1, 0, 1));
        conv("resnet layer1 64->64 3x3 @56", Conv2dFamilyTest.conv(1, 64, 56, 56, 64, 3, 3, 1, 1, 1));
        depthwise("block3-dw 144 3x3/1 @56", DepthwiseConv2dFamilyTest.depthwise(1, 144, 56, 56, 1, 1));
        depthwise("block4-dw 144 3x3/2 @56", DepthwiseConv2dFamilyTest.depthwise(1, 144, 56, 56, 2, 1));
    }

    private static void conv(String title, KernelKey key) {
        KernelFamily.Workload w = CONV.workload(key, 42);
        List<Map<String, Object>> configs = new ArrayList<>();
        configs.add(CONV.spec().defaultConfig(key, 2));
        for (int threads = 1; threads <= 2; threads++) {
            for (String layout : List.of("NCHW", "NHWC")) {
                configs.add(Conv2dFamilyTest.config(layout, "direct", "vector", 6, 2, 64, 1024, 1024, threads));
                configs.add(Conv2dFamilyTest.config(layout, "direct", "vector", 8, 1, 64, 1024, 1024, threads));
                configs.add(Conv2dFamilyTest.config(layout, "im2col", "vector", 6, 2, 128, 1024, 1024, threads));
                if (Conv2dSpec.winogradFits(key)) configs.add(Conv2dFamilyTest.config(layout, "winograd", "vector", 6, 2, 64, 1024, 1024, threads));
            }
            if (Conv2dSpec.gemmFits(key)) {
                for (int[] t : new int[][] {{6, 2}, {4, 3}, {8, 2}, {6, 4}}) {
                    configs.add(Conv2dFamilyTest.config("NCHW", "gemm", "vector", t[0], t[1], 1024, 128, 256, threads));
                    configs.add(Conv2dFamilyTest.config("NHWC", "gemm", "vector", t[0], t[1], 128, 512, 256, threads));
                }
            }
            configs.add(Conv2dFamilyTest.config("NHWC", "direct", "vector", 4, 3, 64, 1024, 1024, threads));
            configs.add(Conv2dFamilyTest.config("NHWC", "direct", "vector", 8, 2, 64, 1024, 1024, threads));
            configs.add(Conv2dFamilyTest.config("NHWC", "im2col", "vector", 8, 2, 256, 1024, 1024, threads));
        }
        int sample = Integer.getInteger("sample", 0);
        SearchSpace space = CONV.spec().space(key, 2);
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < sample; i++) configs.add(space.config(space.sample(random, 10_000).orElseThrow()));
        report(title, CONV, w, CONV.spec().flops(key), configs);
    }

    private static void depthwise(String title, KernelKey key) {
        KernelFamily.Workload w = DEPTHWISE.workload(key, 42);
        List<Map<String, Object>> configs = new ArrayList<>();
        configs.add(DEPTHWISE.spec().defaultConfig(key, 2));
        for (int threads = 1; threads <= 2; threads++) {
            configs.add(DepthwiseConv2dFamilyTest.config("NHWC", "vector", "channels", 1, 2048, threads));
            configs.add(DepthwiseConv2dFamilyTest.config("NHWC", "vector", "channels", 4, 64, threads));
            configs.add(DepthwiseConv2dFamilyTest.config("NCHW", "vector", "width", 8, 16, threads));
            configs.add(DepthwiseConv2dFamilyTest.config("NCHW", "vector", "channels", 8, 2048, threads));
            configs.add(DepthwiseConv2dFamilyTest.config("NHWC", "scalar", "width", 8, 2048, threads));
        }
        report(title, DEPTHWISE, w, DEPTHWISE.spec().flops(key), configs);
    }

    private static void report(String title, KernelFamily family, KernelFamily.Workload w, double flops, List<Map<String, Object>> configs) {
        System.out.printf("%n== %s (%.1f MFLOP)%n", title, flops / 1e6);
        double base = 0, bestG = 0;
        String best = null;
        for (Map<String, Object> cfg : configs) {
            double g = flops / measure(family, w, cfg) / 1e9;
            if (base == 0) base = g;
            System.out.printf("%-80s %8.2f GFLOP/s  x%.1f%n", cfg.values(), g, g / base);
            if (cfg != configs.get(0) && g > bestG) { bestG = g; best = cfg.values().toString(); }
        }
        System.out.printf("best: %s %.2f GFLOP/s x%.1f over default%n", best, bestG, bestG / base);
    }

    /** Best of several timed calls after a warm-up, in seconds; fails on a wrong answer. */
    private static double measure(KernelFamily family, KernelFamily.Workload w, Map<String, Object> cfg) {
        try (KernelFamily.Candidate c = family.candidate(w, new LinkedHashMap<>(cfg))) {
            c.run();
            if (!(c.maxError() <= w.errorBound())) throw new AssertionError(cfg + " wrong: " + c.maxError() + " > " + w.errorBound());
            // A Vector API kernel runs interpreted (seconds per call) until C2 compiles it: warm
            // by calls as well as by time, or the first variant of a kind measures the interpreter.
            long warmEnd = System.nanoTime() + 300_000_000L;
            for (int r = 0; r < 10 || System.nanoTime() < warmEnd; r++) c.run();
            double best = Double.MAX_VALUE;
            long end = System.nanoTime() + 300_000_000L;
            for (int r = 0; r < 3 || System.nanoTime() < end; r++) {
                long t = System.nanoTime();
                c.run();
                best = Math.min(best, (System.nanoTime() - t) / 1e9);
            }
            return best;
        }
    }
}

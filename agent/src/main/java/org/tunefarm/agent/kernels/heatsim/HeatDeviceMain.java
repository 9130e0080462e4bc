package org.tunefarm.agent.kernels.heatsim;

import java.nio.file.Path;
import org.tunefarm.kernel.HeatModel;

/**
 * The simulated heating device as a process of its own, as a board's physics runs beside its
 * agent: {@code java -cp AGENT_JAR org.tunefarm.agent.kernels.heatsim.HeatDeviceMain DIR [FASTER]}
 * creates the device ({@link HeatModel#BENCH}, {@code FASTER} times quicker to heat and cool) in
 * {@code DIR} and ticks it every {@value #PERIOD_MS} ms until killed. Workers find it through
 * {@value HeatSimFamily#DIR_ENV}; the agent reads its sysfs under {@code DIR/sys}.
 */
public final class HeatDeviceMain {
    static final long PERIOD_MS = 20;

    private HeatDeviceMain() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: HeatDeviceMain DIR [FASTER]");
            System.exit(2);
        }
        double faster = args.length > 1 ? Double.parseDouble(args[1]) : 1;
        HeatDevice device = HeatDevice.create(Path.of(args[0]), HeatModel.BENCH.faster(faster));
        try (HeatTicker ticker = new HeatTicker(device, PERIOD_MS)) {
            System.out.println("heatsim device ticking in " + args[0]);
            System.out.flush();
            Thread.currentThread().join(); // until killed
        }
    }
}

package org.tunefarm.agent.harness;

import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.KernelFamily.Workload;
import org.tunefarm.kernel.KernelKey;

/**
 * Keeps the workload of the last (family, key, seed): a batch has one key, so its candidates share
 * inputs and reference, and only one workload (which can be large) is ever held.
 */
final class WorkloadCache {
    private String op;
    private KernelKey key;
    private long seed;
    private Workload workload;

    Workload get(KernelFamily family, KernelKey key, long seed) {
        String op = family.spec().op();
        if (workload == null || !op.equals(this.op) || !key.equals(this.key) || seed != this.seed) {
            workload = null; // let the old one be collected before the new one is built
            Workload built = family.workload(key, seed);
            this.op = op;
            this.key = key;
            this.seed = seed;
            this.workload = built;
        }
        return workload;
    }
}

package org.tunefarm.agent.kernels.gemm;

/**
 * One thread's share of a GEMM: computes the block C[m0:m1, n0:n1] = A[m0:m1, :] · B[:, n0:n1],
 * overwriting what C held. An instance owns its packing buffers, so each thread gets its own.
 */
interface RegionKernel {

    void compute(float[] c, int m0, int m1, int n0, int n1);
}

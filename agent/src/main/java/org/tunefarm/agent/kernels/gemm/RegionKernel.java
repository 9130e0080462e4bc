package org.tunefarm.agent.kernels.gemm;

/**
 * One thread's share of a GEMM: computes the block C[m0:m1, n0:n1] = A[m0:m1, k0:k1] ·
 * B[k0:k1, n0:n1], overwriting what that block of {@code c} held ({@code c} is M x N, row-major).
 * An instance owns its packing buffers, so each thread gets its own.
 */
interface RegionKernel {

    void compute(float[] c, int m0, int m1, int n0, int n1, int k0, int k1);
}

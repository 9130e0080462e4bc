package org.tunefarm.agent.kernels.conv;

/**
 * One thread's part of a convolution. The output is cut into {@link #units()} independent
 * units (rows, planes or blocks of positions, per algorithm); {@link #compute} overwrites the
 * output of units [from, to). An instance owns its scratch buffers, so each thread gets its own.
 */
interface ConvKernel {

    int units();

    void compute(float[] out, int from, int to);
}

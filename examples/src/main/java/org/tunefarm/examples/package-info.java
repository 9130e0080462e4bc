/**
 * Applications that use the best-kernel table, built by the reactor into their own jar
 * ({@code tunefarm-examples}), never into the agent's or the coordinator's.
 * {@link org.tunefarm.examples.GemmExample} ({@code ./tunefarm example}) looks fp32 GEMM up with
 * the {@code org.tunefarm.lookup} library and runs the agent's kernel with what it found.
 */
package org.tunefarm.examples;

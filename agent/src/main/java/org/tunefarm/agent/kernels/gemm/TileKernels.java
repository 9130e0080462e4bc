package org.tunefarm.agent.kernels.gemm;

/**
 * A micro-tile's kernel, and for a right edge narrower than the tile the written-out kernel of as
 * many vectors as the edge needs, where there is one: 512 columns are 21 tiles of 3x3 on AVX2 and
 * 8 columns, which the 3x3 kernel computed on zero padding at 3 times the work. Public because
 * the direct convolution walks its output channels the same way.
 */
public final class TileKernels {

    private final MicroKernel full;
    /** By vectors, the narrower written-out kernels: null where the full tile runs instead. */
    private final MicroKernel[] narrower;
    private final int width;

    public TileKernels(int rows, int vecs) {
        full = MicroKernel.forTile(rows, vecs);
        narrower = new MicroKernel[vecs];
        for (int v = 1; v < vecs; v++) narrower[v] = MicroKernel.writtenOut(rows, v);
        width = vecs * MicroKernel.lanes();
    }

    /** The kernel for a panel of {@code cols} columns, at most the tile's width. */
    public MicroKernel forColumns(int cols) {
        int vecs = vectors(cols);
        return vecs < narrower.length && narrower[vecs] != null ? narrower[vecs] : full;
    }

    /** The columns {@link #forColumns} writes for {@code cols}: the tile's width, or its narrower kernel's whole vectors. */
    public int columnsWritten(int cols) {
        return forColumns(cols) == full ? width : vectors(cols) * MicroKernel.lanes();
    }

    private static int vectors(int cols) {
        return (cols + MicroKernel.lanes() - 1) / MicroKernel.lanes();
    }
}

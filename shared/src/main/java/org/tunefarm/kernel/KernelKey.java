package org.tunefarm.kernel;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a kernel computes: the operation, its shape as named integers, and the element type.
 * Two keys are equal when they compute the same thing, whatever order the shape was written in.
 */
public record KernelKey(String op, Map<String, Integer> shape, String dtype) {

    public KernelKey {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(dtype, "dtype");
        shape = java.util.Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(shape, "shape")));
    }

    /** A compact, stable text form such as {@code gemm[K=512,M=512,N=512]:fp32}. */
    public String id() {
        // Built on every record's id, in the leader's report path: no stream.
        StringBuilder b = new StringBuilder(op.length() + 16 * shape.size() + dtype.length() + 3).append(op).append('[');
        boolean first = true;
        for (Map.Entry<String, Integer> e : shape.entrySet()) {
            if (!first) b.append(',');
            b.append(e.getKey()).append('=').append(e.getValue());
            first = false;
        }
        return b.append("]:").append(dtype).toString();
    }

    /** The shape as {@code 512x512x512} in the family's dimension order. */
    public String shapeText(java.util.List<String> order) {
        return order.stream().map(d -> String.valueOf(shape.get(d))).collect(Collectors.joining("x"));
    }

    public int dim(String name) {
        Integer v = shape.get(name);
        if (v == null) throw new IllegalArgumentException("shape has no dimension '" + name + "'");
        return v;
    }
}

package org.tunefarm.lookup;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A {@link Table} seen from one device: for each kernel of the table ({@code op}, {@code dtype},
 * {@code objective}), the {@link KernelIndex} of the class the device matched, resolved once
 * when the view is made. Immutable and thread-safe; share one per device.
 *
 * <p>The device is matched per kernel, among the classes that tuned that kernel: a device whose
 * own class never tuned conv2d still gets the conv2d of a class with its CPU model. Each answer
 * names the class and the {@link DeviceRule} it came from.
 *
 * <p>Hot path: keep the {@link KernelIndex} of {@link #kernel} and call
 * {@link KernelIndex#lookup(int[])} with a reused shape array. The {@code lookup} methods here
 * take a shape by dimension names, which costs a map walk and an array per call.
 */
public final class DeviceTable {

    private final Device device;
    private final double maxDistance;
    /** {@code op \0 dtype \0 objective} -> one index per set of dimension names (nearly always one). */
    private final Map<String, List<KernelIndex>> byKernel;

    DeviceTable(Device device, double maxDistance, Map<String, List<KernelIndex>> byKernel) {
        this.device = device;
        this.maxDistance = maxDistance;
        this.byKernel = byKernel;
    }

    static String key(String op, String dtype, String objective) {
        return op + '\u0000' + dtype + '\u0000' + objective;
    }

    /** The kernel for objective {@value Table#DEFAULT_OBJECTIVE}; see {@link #kernel(String, String, String)}. */
    public Optional<KernelIndex> kernel(String op, String dtype) {
        return kernel(op, dtype, Table.DEFAULT_OBJECTIVE);
    }

    /**
     * The index of one kernel, empty when no class of the table that tuned it matches this
     * device, or when the table lacks the objective (never another objective's winner).
     *
     * @throws IllegalArgumentException when the table tuned this op under several sets of
     *                                  dimension names: name them with {@link #kernel(String, String, String, Collection)}
     */
    public Optional<KernelIndex> kernel(String op, String dtype, String objective) {
        List<KernelIndex> found = byKernel.getOrDefault(key(op, dtype, objective), List.of());
        if (found.size() > 1) {
            throw new IllegalArgumentException("shape: " + op + ":" + dtype + " was tuned with several sets of dimensions "
                    + found.stream().map(KernelIndex::dimensions).toList() + "; name the dimensions");
        }
        return found.stream().findFirst();
    }

    /** The index of one kernel whose shapes have exactly these dimension names. */
    public Optional<KernelIndex> kernel(String op, String dtype, String objective, Collection<String> dimensions) {
        TreeSet<String> want = new TreeSet<>(dimensions);
        return byKernel.getOrDefault(key(op, dtype, objective), List.of()).stream()
                .filter(k -> new TreeSet<>(k.dimensions()).equals(want)).findFirst();
    }

    /** {@link #lookup(String, String, String, Map)} for objective {@value Table#DEFAULT_OBJECTIVE}. */
    public Answer lookup(String op, String dtype, Map<String, Integer> shape) {
        return lookup(op, dtype, Table.DEFAULT_OBJECTIVE, shape);
    }

    /** The answer for a shape given by dimension names, or null when there is none. */
    public Answer lookup(String op, String dtype, String objective, Map<String, Integer> shape) {
        return kernel(op, dtype, objective, shape.keySet()).map(k -> k.lookup(k.shape(shape))).orElse(null);
    }

    /** Every kernel this device has an index for. */
    public List<KernelIndex> kernels() {
        return byKernel.values().stream().flatMap(List::stream).collect(Collectors.toUnmodifiableList());
    }

    /** The device this view was made for. */
    public Device device() { return device; }

    /** The largest distance of a {@code NEAREST} answer. */
    public double maxDistance() { return maxDistance; }
}

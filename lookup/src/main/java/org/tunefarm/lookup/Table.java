package org.tunefarm.lookup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A best-kernel table document ({@code tunefarm.table/2}, as {@code GET /api/table} serves it
 * and {@code tunefarm table export} writes it), loaded for lookups.
 *
 * <pre>{@code
 * Table table = Table.load(Path.of("table.json"));
 * DeviceTable mine = table.forDevice(Device.ofClass(myClass));            // once
 * KernelIndex gemm = mine.kernel("gemm", "fp32").orElseThrow();           // once per kernel
 * int[] shape = gemm.shape(Map.of("M", 768, "N", 768, "K", 768));         // once per shape
 * Answer a = gemm.lookup(shape);                                          // hot path: no allocation
 * }</pre>
 *
 * <p>Loading checks the {@code schema} ({@code tunefarm.table/2} only) and the type of every field
 * it uses, naming the field at fault ({@link TableFormatException}); fields it does not know are
 * ignored. A loaded table is immutable and thread-safe. How a device and a shape are matched is
 * said in {@link DeviceTable} and {@link KernelIndex}.
 */
public final class Table {

    /** The objective a lookup gets when it names none: median time per call. */
    public static final String DEFAULT_OBJECTIVE = "latency";
    /** ln 4: one dimension 4x off, or two dimensions 2x off, is still near. */
    public static final double DEFAULT_MAX_DISTANCE = Math.log(4);

    private final String farmId;
    private final long generatedAt;
    private final List<String> sweeps;
    private final Map<String, ClassProfile> classes;
    private final int size;
    /** kernel group (op, dtype, objective, dimensions) -> device class -> its rows, sorted by kernel id. */
    private final Map<Group, Map<String, List<Row>>> groups = new LinkedHashMap<>();
    /** (device class, op, dtype, dimensions) -> the row with the smallest kernel id that has default params. */
    private final Map<List<String>, Row> defaults = new HashMap<>();

    private record Group(String op, String dtype, String objective, String dimensions) {}

    Table(String farmId, long generatedAt, List<String> sweeps, Map<String, ClassProfile> classes, List<Row> rows) {
        this.farmId = farmId;
        this.generatedAt = generatedAt;
        this.sweeps = List.copyOf(sweeps);
        this.classes = Collections.unmodifiableMap(new TreeMap<>(classes));
        this.size = rows.size();
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(Row::kernelId));
        for (Row r : sorted) {
            groups.computeIfAbsent(new Group(r.op(), r.dtype(), r.objective(), r.dimensions()), g -> new TreeMap<>())
                    .computeIfAbsent(r.deviceClass(), c -> new ArrayList<>()).add(r);
            if (r.defaultParams() != null) defaults.putIfAbsent(List.of(r.deviceClass(), r.op(), r.dtype(), r.dimensions()), r);
        }
    }

    /** Reads a table document from a file. */
    public static Table load(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return load(in);
        }
    }

    /** Reads a table document from a URL ({@code file:}, {@code jar:}, {@code http(s):} ...). */
    public static Table load(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return load(in);
        }
    }

    /** Reads a table document from a stream, which it leaves open. */
    public static Table load(InputStream in) throws IOException {
        return TableReader.read(in);
    }

    /** Reads a table document from a string. */
    public static Table parse(String json) {
        try {
            return load(new java.io.ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("reading from memory", e);
        }
    }

    /** Reads a classpath resource (e.g. {@code tunefarm/table.json}) through this class's loader. */
    public static Table loadResource(String name) throws IOException {
        return loadResource(Table.class.getClassLoader(), name);
    }

    /** Reads a classpath resource through a given class loader. */
    public static Table loadResource(ClassLoader loader, String name) throws IOException {
        URL url = loader.getResource(name);
        if (url == null) throw new java.io.FileNotFoundException("no classpath resource " + name);
        return load(url);
    }

    /** A view of the table for one device, with the default maximum distance (ln 4). */
    public DeviceTable forDevice(Device device) {
        return forDevice(device, DEFAULT_MAX_DISTANCE);
    }

    /**
     * A view of the table for one device: the class it matches is resolved here, once per kernel,
     * and every answer built, so lookups allocate nothing.
     *
     * @param maxDistance the largest shape distance of a {@code NEAREST} answer (0: exact shapes only)
     */
    public DeviceTable forDevice(Device device, double maxDistance) {
        Objects.requireNonNull(device, "device");
        if (!(maxDistance >= 0)) throw new IllegalArgumentException("maxDistance must be 0 or more, got " + maxDistance);
        Map<String, List<KernelIndex>> byKernel = new HashMap<>();
        for (var g : groups.entrySet()) {
            DeviceMatcher.Match match = DeviceMatcher.match(device, g.getValue().keySet(), classes);
            if (match == null) continue;
            Group k = g.getKey();
            Row fallback = defaults.get(List.of(match.deviceClass(), k.op(), k.dtype(), k.dimensions()));
            byKernel.computeIfAbsent(DeviceTable.key(k.op(), k.dtype(), k.objective()), x -> new ArrayList<>())
                    .add(new KernelIndex(match.deviceClass(), match.rule(), k.objective(), g.getValue().get(match.deviceClass()), fallback, maxDistance));
        }
        byKernel.replaceAll((k, v) -> List.copyOf(v));
        return new DeviceTable(device, maxDistance, Map.copyOf(byKernel));
    }

    /** The farm that made the document, or null. */
    public String farmId() { return farmId; }

    /** When the document was made, or null when it does not say. */
    public Instant generatedAt() { return generatedAt > 0 ? Instant.ofEpochMilli(generatedAt) : null; }

    /** The sweeps the entries come from. */
    public List<String> sweeps() { return sweeps; }

    /** The readable profiles of the document's classes (a class the farm had no profile of is absent). */
    public Map<String, ClassProfile> classes() { return classes; }

    /** Every device class that has entries. */
    public Set<String> deviceClasses() {
        Set<String> out = new TreeSet<>();
        for (var byClass : groups.values()) out.addAll(byClass.keySet());
        return Collections.unmodifiableSet(out);
    }

    /** Number of entries. */
    public int size() { return size; }
}

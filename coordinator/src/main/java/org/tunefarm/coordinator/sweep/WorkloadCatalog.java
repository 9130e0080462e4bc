package org.tunefarm.coordinator.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpecs;

/**
 * Named workloads a sweep can tune instead of listing shapes: the layers of a network, each a
 * kernel and a shape (configs/workloads/*.yaml). The files are copied into the coordinator jar
 * under {@code workloads/}; when {@code tunefarm.home} is set and has {@code configs/workloads},
 * that folder is read instead, so an edited catalog takes effect without a rebuild. Every layer
 * is validated against its kernel family when the catalog loads.
 */
public final class WorkloadCatalog {

    /** @param count how many times the network runs this shape (1 when not said) */
    public record Layer(String name, String kernel, Map<String, Integer> shape, int count) {}

    public record Workload(String name, String description, List<Layer> layers) {

        /** The distinct kernels of the layers, in order of first appearance. */
        public List<String> kernels() {
            return layers.stream().map(Layer::kernel).distinct().toList();
        }
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String FOLDER = "workloads";

    private final Map<String, Workload> byName;

    private WorkloadCatalog(Map<String, Workload> byName) {
        this.byName = Collections.unmodifiableMap(new TreeMap<>(byName));
    }

    private static final class Standard {
        static final WorkloadCatalog CATALOG = load();
    }

    /** The catalog this coordinator ships with (or its home's copy), loaded once. */
    public static WorkloadCatalog standard() {
        return Standard.CATALOG;
    }

    public Workload get(String name) {
        return byName.get(name);
    }

    public Set<String> names() {
        return byName.keySet();
    }

    public static WorkloadCatalog of(List<Workload> workloads) {
        Map<String, Workload> m = new LinkedHashMap<>();
        for (Workload w : workloads) {
            if (m.put(w.name(), w) != null) throw new IllegalArgumentException("workload '" + w.name() + "' is defined twice");
        }
        return new WorkloadCatalog(m);
    }

    private static WorkloadCatalog load() {
        String home = System.getProperty("tunefarm.home");
        if (home != null && Files.isDirectory(Path.of(home, "configs", FOLDER))) return fromDirectory(Path.of(home, "configs", FOLDER));
        return fromClassPath();
    }

    /** Every {@code *.yaml} in a folder. */
    public static WorkloadCatalog fromDirectory(Path dir) {
        List<Workload> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    out.add(parse(in, f.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read workloads from " + dir, e);
        }
        return of(out);
    }

    /**
     * The {@code workloads/*.yaml} beside this class: a folder when run from target/classes, a
     * jar's entries when run from the jar (a class path has no listing of its own).
     */
    static WorkloadCatalog fromClassPath() {
        try {
            Path source = Path.of(WorkloadCatalog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(source)) {
                Path dir = source.resolve(FOLDER);
                return Files.isDirectory(dir) ? fromDirectory(dir) : of(List.of());
            }
            List<Workload> out = new ArrayList<>();
            try (JarFile jar = new JarFile(source.toFile())) {
                for (JarEntry e : Collections.list(jar.entries())) {
                    String n = e.getName();
                    if (!n.startsWith(FOLDER + "/") || !n.endsWith(".yaml") || n.indexOf('/', FOLDER.length() + 1) >= 0) continue;
                    try (InputStream in = jar.getInputStream(e)) {
                        out.add(parse(in, n));
                    }
                }
            }
            return of(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the workload catalog", e);
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot locate the workload catalog: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException naming the file and the field at fault */
    static Workload parse(InputStream in, String file) throws IOException {
        JsonNode root = YAML.readTree(in);
        if (root == null || !root.isObject()) throw new IllegalArgumentException(file + ": a workload must be an object");
        String name = required(root, "name", file).asText();
        String description = root.path("description").asText("");
        JsonNode layers = required(root, "layers", file);
        if (!layers.isArray() || layers.isEmpty()) throw new IllegalArgumentException(file + ": layers must be a non-empty list");
        List<Layer> out = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < layers.size(); i++) {
            JsonNode l = layers.get(i);
            String where = file + ": layers[" + i + "]";
            String layer = required(l, "name", where).asText();
            if (!seen.add(layer)) throw new IllegalArgumentException(where + ": layer name '" + layer + "' repeats");
            String kernel = required(l, "kernel", where).asText();
            Map<String, Integer> shape = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = required(l, "shape", where).fields(); it.hasNext(); ) {
                var e = it.next();
                if (!e.getValue().isIntegralNumber() || !e.getValue().canConvertToInt()) throw new IllegalArgumentException(where + ".shape." + e.getKey() + ": must be an integer");
                shape.put(e.getKey(), e.getValue().intValue());
            }
            try {
                KernelSpecs.get(kernel).validate(new KernelKey(kernel, shape, "fp32"));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + " (" + layer + "): " + e.getMessage(), e);
            }
            int count = l.path("count").asInt(1);
            if (count < 1) throw new IllegalArgumentException(where + ".count: must be positive");
            out.add(new Layer(layer, kernel, Collections.unmodifiableMap(shape), count));
        }
        return new Workload(name, description, List.copyOf(out));
    }

    private static JsonNode required(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) throw new IllegalArgumentException(where + ": " + field + " is required");
        return v;
    }
}

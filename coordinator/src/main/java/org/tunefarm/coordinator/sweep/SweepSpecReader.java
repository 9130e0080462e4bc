package org.tunefarm.coordinator.sweep;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunefarm.coordinator.strategy.Strategies;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.kernel.CommandKernelSpec;
import org.tunefarm.kernel.KernelCatalog;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Objective;
import org.tunefarm.space.SearchSpace;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads a sweep spec from JSON or YAML and validates every field against the kernel family, so
 * a bad spec is refused with the dotted path of the field at fault, before anything is dispatched.
 */
public final class SweepSpecReader {

    public static final int MAX_BYTES = 256 * 1024;
    /** Core count the narrowed space is checked against at submission; each class gets its own later. */
    static final int VALIDATION_CORES = 64;

    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(32).maxStringLength(64 * 1024).maxNumberLength(32).build();
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder().streamReadConstraints(LIMITS)
            .loaderOptions(yamlLimits()).enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
    private static final Set<String> TOP = Set.of("name", "kernel", "dtype", "shapes", "workload", "layers", "space", "constraints", "strategy", "measure", "deviceClasses", "batchSize", "priority",
            "objective", "sustainedSeconds", "leaseSeconds");

    private SweepSpecReader() {}

    /**
     * SnakeYAML's own limits, below Jackson's: few aliases (a billion-laughs document is refused,
     * though Jackson reads an alias as its anchor's name and never expands it), shallow nesting,
     * no key given twice, no document longer than a body may be.
     */
    private static LoaderOptions yamlLimits() {
        LoaderOptions o = new LoaderOptions();
        o.setMaxAliasesForCollections(10);
        o.setNestingDepthLimit(32);
        o.setAllowDuplicateKeys(false);
        o.setCodePointLimit(MAX_BYTES);
        o.setAllowRecursiveKeys(false);
        return o;
    }

    /** Parses YAML (a superset of JSON) or JSON text, for a built-in kernel family. */
    public static SweepSpec read(String text) {
        return read(text, KernelCatalog.builtIn());
    }

    /**
     * Parses YAML or JSON text against the kernels the farm can tune now: the built-in families
     * and the command kernels that registered agents advertise.
     */
    public static SweepSpec read(String text, KernelCatalog kernels) {
        if (text == null || text.isBlank()) throw new SpecException("body", "the sweep spec is empty");
        if (text.length() > MAX_BYTES) throw new SpecException("body", "the sweep spec is over " + MAX_BYTES + " bytes");
        JsonNode root;
        try {
            String t = text.stripLeading();
            root = (t.startsWith("{") ? JSON : YAML).readTree(text);
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            throw new SpecException("body", "not valid JSON or YAML" + (loc != null ? " at line " + loc.getLineNr() + ", column " + loc.getColumnNr() : "") + ": " + e.getOriginalMessage());
        } catch (RuntimeException e) {
            throw new SpecException("body", "not valid JSON or YAML: " + e.getMessage());
        }
        return from(root, kernels);
    }

    public static SweepSpec from(JsonNode root) {
        return from(root, KernelCatalog.builtIn(), WorkloadCatalog.standard());
    }

    public static SweepSpec from(JsonNode root, KernelCatalog kernels) {
        return from(root, kernels, WorkloadCatalog.standard());
    }

    /** Reads a spec whose kernel is looked up in {@code kernels} and {@code workload}, if any, in {@code catalog}. */
    public static SweepSpec from(JsonNode root, KernelCatalog kernels, WorkloadCatalog catalog) {
        if (root == null || !root.isObject()) throw new SpecException("body", "the sweep spec must be an object");
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!TOP.contains(f)) throw new SpecException(f, "unknown field (known: " + new java.util.TreeSet<>(TOP) + ")");
        }
        WorkloadCatalog.Workload workload = workload(root, catalog);
        String kernel = text(root, "kernel", null);
        if (kernel == null && workload != null && workload.kernels().size() == 1) kernel = workload.kernels().get(0);
        if (kernel == null) {
            throw new SpecException("kernel", workload == null ? "is required"
                    : "is required: workload " + workload.name() + " has layers of " + workload.kernels());
        }
        String op = kernel;
        KernelSpec family = kernels.find(op).orElseThrow(() -> new SpecException("kernel", "unknown kernel '" + op
                + "' (known: " + kernels.ops() + "); a command kernel is known while a registered agent advertises it"));
        String name = text(root, "name", workload != null ? workload.name() + "-" + kernel : kernel + "-sweep");
        String dtype = text(root, "dtype", "fp32");
        List<Map<String, Integer>> shapes = workload != null ? WorkloadLayers.shapes(workload, kernel, root.get("layers"))
                : shapes(root.get("shapes"), family);
        if (shapes.isEmpty()) throw new SpecException("shapes", "at least one shape is required");
        for (int i = 0; i < shapes.size(); i++) {
            try {
                family.validate(new KernelKey(kernel, shapes.get(i), dtype));
            } catch (IllegalArgumentException e) {
                throw shapeError(i, e.getMessage());
            }
        }
        Map<String, List<Object>> space = space(root.get("space"));
        List<String> constraints = strings(root.get("constraints"), "constraints");
        SweepSpec.StrategySpec strategy = strategy(root.get("strategy"));
        for (int i = 0; i < shapes.size(); i++) {
            SearchSpace full = family.space(new KernelKey(kernel, shapes.get(i), dtype), VALIDATION_CORES);
            SearchSpace narrowed;
            try {
                narrowed = full.narrow(space, constraints);
            } catch (IllegalArgumentException e) {
                String m = e.getMessage();
                throw m != null && m.startsWith("space.") ? new SpecException(m.substring(0, m.indexOf(':')), m.substring(m.indexOf(':') + 2))
                        : new SpecException("constraints", m);
            }
            if (!hasValidPoint(narrowed)) throw new SpecException("space", "no valid configuration is left for shape " + shapes.get(i));
            if (i == 0) checkStrategy(strategy, narrowed);
        }
        MeasureSettings measure = measure(root.get("measure"));
        List<String> classes = strings(root.get("deviceClasses"), "deviceClasses");
        int batchSize = batchSize(root);
        double leaseSeconds = leaseSeconds(root, batchSize);
        int priority = integer(root, "priority", 0, -SweepControl.MAX_PRIORITY, SweepControl.MAX_PRIORITY);
        CommandKernelDeclaration command = family instanceof CommandKernelSpec c ? c.declaration() : null;
        Fidelity fidelity = fidelity(root.get("measure"));
        Objective objective = objective(root);
        double sustained = sustainedSeconds(root, objective);
        if (objective == Objective.SUSTAINED && fidelity.finalists() == 0) {
            throw new SpecException("measure.finalists", "must be at least 1 for objective sustained: its finalists are the ones run sustained");
        }
        return new SweepSpec(name, kernel, dtype, shapes, space, constraints, strategy, measure, classes, batchSize, fidelity, command, priority,
                objective, sustained, leaseSeconds);
    }

    /** {@code batchSize}: a fixed count in [1, 1000], or {@code auto} (the default) for leases sized by time. */
    private static int batchSize(JsonNode root) {
        JsonNode v = root.get("batchSize");
        if (v == null || v.isNull() || (v.isTextual() && v.textValue().equals("auto"))) return SweepSpec.AUTO_BATCH;
        if (v.isTextual()) throw new SpecException("batchSize", "must be an integer or auto, got " + v);
        return integer(root, "batchSize", SweepSpec.AUTO_BATCH, 1, SweepSpec.MAX_BATCH);
    }

    /** {@code leaseSeconds}: how long an adaptive lease lasts; meaningless beside a fixed batch size, so refused there. */
    private static double leaseSeconds(JsonNode root, int batchSize) {
        JsonNode v = root.get("leaseSeconds");
        if (v == null || v.isNull()) return SweepSpec.DEFAULT_LEASE_SECONDS;
        if (batchSize != SweepSpec.AUTO_BATCH) {
            throw new SpecException("leaseSeconds", "applies only when batchSize is auto (this sweep fixes batchSize at " + batchSize + ")");
        }
        if (!v.isNumber()) throw new SpecException("leaseSeconds", "must be a number, got " + v);
        double d = v.doubleValue();
        if (!(d >= 1) || d > SweepSpec.MAX_LEASE_SECONDS) throw new SpecException("leaseSeconds", "must be in [1, " + (int) SweepSpec.MAX_LEASE_SECONDS + "], got " + v);
        return d;
    }

    private static Objective objective(JsonNode root) {
        String text = text(root, "objective", null);
        if (text == null) return Objective.LATENCY;
        try {
            return Objective.of(text);
        } catch (IllegalArgumentException e) {
            throw new SpecException("objective", e.getMessage().substring("objective ".length()));
        }
    }

    /**
     * Seconds each finalist of a sustained sweep runs continuously, in (0, 3600], default 30.
     * Refused with any other objective: only a sustained sweep runs anything sustained, and a
     * figure that would be silently ignored is a mistake worth saying.
     */
    private static double sustainedSeconds(JsonNode root, Objective objective) {
        JsonNode v = root.get("sustainedSeconds");
        if (v == null || v.isNull()) return objective == Objective.SUSTAINED ? SweepSpec.DEFAULT_SUSTAINED_SECONDS : 0;
        if (objective != Objective.SUSTAINED) throw new SpecException("sustainedSeconds", "applies only to objective sustained (this sweep's objective is " + objective.text() + ")");
        if (!v.isNumber()) throw new SpecException("sustainedSeconds", "must be a number, got " + v);
        double d = v.doubleValue();
        if (!(d > 0) || d > SweepSpec.MAX_SUSTAINED_SECONDS) throw new SpecException("sustainedSeconds", "must be in (0, " + (int) SweepSpec.MAX_SUSTAINED_SECONDS + "], got " + v);
        return d;
    }

    /** The named catalog entry, or null when the spec lists its shapes. */
    private static WorkloadCatalog.Workload workload(JsonNode root, WorkloadCatalog catalog) {
        String name = text(root, "workload", null);
        if (name == null) {
            if (root.has("layers")) throw new SpecException("layers", "selects layers of a workload: give workload too");
            return null;
        }
        if (root.has("shapes")) throw new SpecException("workload", "give either workload or shapes, not both");
        WorkloadCatalog.Workload w = catalog.get(name);
        if (w == null) throw new SpecException("workload", "unknown workload '" + name + "' (known: " + catalog.names() + ")");
        return w;
    }

    /**
     * {@link KernelSpec#validate} names {@code shape.D} or {@code dtype}; point at the field the
     * user wrote: {@code shapes[i].D}, or the top-level {@code dtype}.
     */
    private static SpecException shapeError(int i, String message) {
        String m = message == null ? "" : message;
        int end = 0;
        while (end < m.length() && m.charAt(end) != ' ' && m.charAt(end) != ':') end++;
        String named = m.substring(0, end);
        String rest = m.substring(end).replaceFirst("^:? ", "");
        if (named.startsWith("shape.")) return new SpecException("shapes[" + i + "]." + named.substring("shape.".length()), rest);
        if (named.equals("dtype")) return new SpecException("dtype", rest);
        return new SpecException("shapes[" + i + "]", m);
    }

    /**
     * The strategy registry checks the name and the options (names and types) by building the
     * strategy once; the budget and time limit are the sweep's, kept by the search.
     */
    private static void checkStrategy(SweepSpec.StrategySpec s, SearchSpace space) {
        for (String reserved : List.of("budget", "timeLimit")) {
            if (s.options().containsKey(reserved)) throw new SpecException("strategy.options." + reserved, "set it as strategy." + (reserved.equals("budget") ? "budget" : "seconds") + " instead");
        }
        if (!Strategies.names().contains(s.name()) && !s.name().equals("default")) {
            throw new SpecException("strategy.name", "unknown strategy '" + s.name() + "' (known: " + Strategies.names() + ")");
        }
        try {
            Strategies.create(s.name(), space, s.options(), s.seed());
        } catch (IllegalArgumentException e) {
            String m = String.valueOf(e.getMessage());
            java.util.regex.Matcher opt = java.util.regex.Pattern.compile("option '([^']+)'").matcher(m);
            throw new SpecException(opt.find() ? "strategy.options." + opt.group(1) : "strategy", m);
        }
    }

    /** Random draws, then a bounded walk: a huge space with no valid point must not hang the request. */
    private static boolean hasValidPoint(SearchSpace s) {
        if (s.sample(new java.util.SplittableRandom(0), 10_000).isPresent()) return true;
        var it = s.validIndices(0, Math.min(s.size(), 1_000_000));
        return it.hasNext();
    }

    private static List<Map<String, Integer>> shapes(JsonNode n, KernelSpec family) {
        if (n == null || n.isNull()) throw new SpecException("shapes", "is required: a list of shapes such as {" + String.join(": .., ", family.dimensions()) + ": ..}");
        if (!n.isArray()) throw new SpecException("shapes", "must be a list");
        if (n.size() > 256) throw new SpecException("shapes", "at most 256 shapes per sweep");
        List<Map<String, Integer>> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            JsonNode s = n.get(i);
            String f = "shapes[" + i + "]";
            if (!s.isObject()) throw new SpecException(f, "must be an object of dimension: size");
            Map<String, Integer> shape = new LinkedHashMap<>();
            for (var it = s.fields(); it.hasNext(); ) {
                var e = it.next();
                if (!e.getValue().canConvertToInt() || !e.getValue().isIntegralNumber()) throw new SpecException(f + "." + e.getKey(), "must be an integer");
                shape.put(e.getKey(), e.getValue().intValue());
            }
            out.add(shape);
        }
        return out;
    }

    private static Map<String, List<Object>> space(JsonNode n) {
        Map<String, List<Object>> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) return out;
        if (!n.isObject()) throw new SpecException("space", "must be an object of parameter: [values]");
        for (var it = n.fields(); it.hasNext(); ) {
            var e = it.next();
            String f = "space." + e.getKey();
            JsonNode vs = e.getValue();
            if (!vs.isArray() || vs.isEmpty()) throw new SpecException(f, "must be a non-empty list of values");
            List<Object> values = new ArrayList<>();
            for (JsonNode v : vs) {
                if (v.isIntegralNumber() && v.canConvertToInt()) values.add(v.intValue());
                else if (v.isTextual()) values.add(v.textValue());
                else throw new SpecException(f, "values must be integers or strings, got " + v);
            }
            out.put(e.getKey(), values);
        }
        return out;
    }

    private static SweepSpec.StrategySpec strategy(JsonNode n) {
        if (n == null || n.isNull()) return new SweepSpec.StrategySpec(Strategies.DEFAULT, 64, 0, 1, Map.of());
        if (n.isTextual()) return new SweepSpec.StrategySpec(n.textValue(), 64, 0, 1, Map.of());
        if (!n.isObject()) throw new SpecException("strategy", "must be a name or an object {name, budget, seconds, seed, options}");
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!Set.of("name", "budget", "seconds", "seed", "options").contains(f)) throw new SpecException("strategy." + f, "unknown field");
        }
        String name = text(n, "name", Strategies.DEFAULT, "strategy.");
        int budget = integer(n, "budget", 64, 0, 10_000_000, "strategy.");
        long seconds = integer(n, "seconds", 0, 0, 30 * 24 * 3600, "strategy.");
        long seed = n.has("seed") ? integer(n, "seed", 1, Integer.MIN_VALUE, Integer.MAX_VALUE, "strategy.") : 1;
        Map<String, Object> options = new LinkedHashMap<>();
        JsonNode o = n.get("options");
        if (o != null && !o.isNull()) {
            if (!o.isObject()) throw new SpecException("strategy.options", "must be an object");
            for (var it = o.fields(); it.hasNext(); ) {
                var e = it.next();
                JsonNode v = e.getValue();
                if (v.isNumber()) options.put(e.getKey(), v.numberValue());
                else if (v.isTextual() || v.isBoolean()) options.put(e.getKey(), v.isTextual() ? v.textValue() : v.booleanValue());
                else throw new SpecException("strategy.options." + e.getKey(), "must be a number, string or boolean");
            }
        }
        return new SweepSpec.StrategySpec(name, budget, seconds, seed, options);
    }

    private static MeasureSettings measure(JsonNode n) {
        MeasureSettings d = MeasureSettings.DEFAULTS;
        if (n == null || n.isNull()) return d;
        if (!n.isObject()) throw new SpecException("measure", "must be an object");
        Set<String> known = Set.of("minSamples", "minSampleMs", "maxWarmupMs", "steadyTolerance", "timeoutMs", "seed", "maxCv", "maxRetakes", "finalists", "cooldownTimeoutMs");
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) throw new SpecException("measure." + f, "unknown field (known: " + new java.util.TreeSet<>(known) + ")");
        }
        try {
            return new MeasureSettings(
                    integer(n, "minSamples", d.minSamples(), 1, 1000, "measure."),
                    number(n, "minSampleMs", d.minSampleMs()),
                    integer(n, "maxWarmupMs", d.maxWarmupMs(), 0, 600_000, "measure."),
                    number(n, "steadyTolerance", d.steadyTolerance()),
                    integer(n, "timeoutMs", (int) d.timeoutMs(), 100, 3_600_000, "measure."),
                    n.has("seed") ? integer(n, "seed", 0, Integer.MIN_VALUE, Integer.MAX_VALUE, "measure.") : d.seed());
        } catch (SpecException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            String msg = e.getMessage();
            throw new SpecException("measure." + msg.substring(0, msg.indexOf(' ')), msg.substring(msg.indexOf(' ') + 1));
        }
    }

    /** The measure section's noise guards: {@code maxCv}, {@code maxRetakes}, {@code finalists}, {@code cooldownTimeoutMs}. */
    private static Fidelity fidelity(JsonNode n) {
        Fidelity d = Fidelity.DEFAULTS;
        if (n == null || !n.isObject()) return d;
        try {
            return new Fidelity(number(n, "maxCv", d.maxCv()), integer(n, "maxRetakes", d.maxRetakes(), 0, 10, "measure."),
                    integer(n, "finalists", d.finalists(), 0, 100, "measure."),
                    (long) integer(n, "cooldownTimeoutMs", d.cooldownTimeoutMs().intValue(), 0, (int) Fidelity.MAX_COOLDOWN_TIMEOUT_MS, "measure."));
        } catch (SpecException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            String msg = e.getMessage();
            throw new SpecException("measure." + msg.substring(0, msg.indexOf(' ')), msg.substring(msg.indexOf(' ') + 1));
        }
    }

    private static double number(JsonNode n, String field, double dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isNumber()) throw new SpecException("measure." + field, "must be a number, got " + v);
        return v.doubleValue();
    }

    private static String text(JsonNode n, String field, String dflt) {
        return text(n, field, dflt, "");
    }

    private static String text(JsonNode n, String field, String dflt, String prefix) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isTextual()) throw new SpecException(prefix + field, "must be a string, got " + v.getNodeType().name().toLowerCase());
        if (v.textValue().length() > 200) throw new SpecException(prefix + field, "is longer than 200 characters");
        return v.textValue();
    }

    private static int integer(JsonNode n, String field, int dflt, int min, int max) {
        return integer(n, field, dflt, min, max, "");
    }

    private static int integer(JsonNode n, String field, int dflt, int min, int max, String prefix) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isIntegralNumber() || !v.canConvertToLong()) throw new SpecException(prefix + field, "must be an integer, got " + v);
        long l = v.longValue();
        if (l < min || l > max) throw new SpecException(prefix + field, "must be in [" + min + ", " + max + "], got " + l);
        return (int) l;
    }

    private static List<String> strings(JsonNode n, String field) {
        if (n == null || n.isNull()) return List.of();
        if (!n.isArray()) throw new SpecException(field, "must be a list of strings");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            if (!n.get(i).isTextual()) throw new SpecException(field + "[" + i + "]", "must be a string");
            out.add(n.get(i).textValue());
        }
        return out;
    }
}

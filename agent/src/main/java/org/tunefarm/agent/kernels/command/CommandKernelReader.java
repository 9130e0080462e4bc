package org.tunefarm.agent.kernels.command;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.PatternSyntaxException;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.kernel.CommandKernelSpec;
import org.tunefarm.kernel.KernelCatalog;

/**
 * Reads the {@code commandKernels} list of an agent config, checking everything a board owner can
 * get wrong before the agent registers: the declaration, every placeholder of the argv templates,
 * the working folder, the output format. Messages start with the field's path, e.g.
 * {@code commandKernels[0].run[1]: unknown placeholder {TX}}.
 */
public final class CommandKernelReader {
    static final long DEFAULT_BUILD_TIMEOUT_MS = 120_000;
    static final long DEFAULT_RUN_TIMEOUT_MS = 60_000;
    private static final Set<String> FIELDS = Set.of("name", "dimensions", "flops", "parameters", "constraints", "default", "dtypes",
            "workdir", "build", "run", "output", "regex", "buildTimeoutMs", "runTimeoutMs");

    private CommandKernelReader() {}

    /**
     * @param list    the config's {@code commandKernels} node; null or missing means none
     * @param baseDir relative working folders are taken from here (the config file's folder)
     * @throws IllegalArgumentException naming the field at fault
     */
    public static List<CommandKernel> read(JsonNode list, Path baseDir) {
        if (list == null || list.isNull() || list.isMissingNode()) return List.of();
        if (!list.isArray()) throw new IllegalArgumentException("commandKernels: must be a list");
        List<CommandKernel> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            CommandKernel k = one(list.get(i), baseDir, "commandKernels[" + i + "]");
            if (!names.add(k.name())) throw new IllegalArgumentException("commandKernels[" + i + "].name: '" + k.name() + "' is declared twice");
            out.add(k);
        }
        return List.copyOf(out);
    }

    private static CommandKernel one(JsonNode n, Path baseDir, String f) {
        if (n == null || !n.isObject()) throw new IllegalArgumentException(f + ": must be an object");
        for (var it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!FIELDS.contains(k)) throw new IllegalArgumentException(f + "." + k + ": unknown field (known: " + new TreeSet<>(FIELDS) + ")");
        }
        String name = text(n, "name", f, null);
        if (name == null) throw new IllegalArgumentException(f + ".name: is required");
        if (KernelCatalog.isBuiltIn(name)) throw new IllegalArgumentException(f + ".name: '" + name + "' is a built-in kernel family");
        CommandKernelDeclaration d = new CommandKernelDeclaration(name, strings(n.get("dimensions"), f + ".dimensions"),
                domains(n.get("parameters"), f + ".parameters"), strings(n.get("constraints"), f + ".constraints"),
                values(n.get("default"), f + ".default"), text(n, "flops", f, "0"), strings(n.get("dtypes"), f + ".dtypes"));
        CommandKernelSpec spec;
        try {
            spec = new CommandKernelSpec(d);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(f + "." + e.getMessage());
        }
        List<String> known = new ArrayList<>(d.dimensions());
        known.addAll(d.parameters().keySet());
        known.addAll(new TreeSet<>(CommandKernelSpec.RESERVED));
        ArgvTemplate build = n.hasNonNull("build") ? ArgvTemplate.parse(strings(n.get("build"), f + ".build"), known, f + ".build") : null;
        if (!n.hasNonNull("run")) throw new IllegalArgumentException(f + ".run: is required");
        ArgvTemplate run = ArgvTemplate.parse(strings(n.get("run"), f + ".run"), known, f + ".run");
        String wd = text(n, "workdir", f, ".");
        Path workdir = baseDir.resolve(wd).toAbsolutePath().normalize();
        if (!Files.isDirectory(workdir)) throw new IllegalArgumentException(f + ".workdir: " + workdir + " is not a directory");
        return new CommandKernel(spec, workdir, build, run, output(n, f), millis(n, "buildTimeoutMs", f, DEFAULT_BUILD_TIMEOUT_MS),
                millis(n, "runTimeoutMs", f, DEFAULT_RUN_TIMEOUT_MS));
    }

    private static OutputFormat output(JsonNode n, String f) {
        String kind = text(n, "output", f, n.hasNonNull("regex") ? "regex" : "json");
        String regex = text(n, "regex", f, null);
        switch (kind) {
            case "json" -> {
                if (regex != null) throw new IllegalArgumentException(f + ".regex: only used with output: regex");
                return OutputFormat.json();
            }
            case "regex" -> {
                if (regex == null) throw new IllegalArgumentException(f + ".regex: is required with output: regex");
                try {
                    return OutputFormat.regex(regex);
                } catch (PatternSyntaxException e) {
                    throw new IllegalArgumentException(f + ".regex: " + e.getDescription() + " at index " + e.getIndex());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(f + ".regex: " + e.getMessage());
                }
            }
            default -> throw new IllegalArgumentException(f + ".output: must be json or regex, got '" + kind + "'");
        }
    }

    private static Map<String, List<Object>> domains(JsonNode n, String f) {
        if (n == null || n.isNull()) throw new IllegalArgumentException(f + ": is required: name → [values]");
        if (!n.isObject()) throw new IllegalArgumentException(f + ": must be an object of name → [values]");
        Map<String, List<Object>> out = new LinkedHashMap<>();
        for (var it = n.fields(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getValue().isArray()) throw new IllegalArgumentException(f + "." + e.getKey() + ": must be a list of values");
            List<Object> vs = new ArrayList<>();
            for (JsonNode v : e.getValue()) vs.add(scalar(v, f + "." + e.getKey()));
            out.put(e.getKey(), vs);
        }
        return out;
    }

    private static Map<String, Object> values(JsonNode n, String f) {
        if (n == null || n.isNull()) throw new IllegalArgumentException(f + ": is required: the untuned configuration");
        if (!n.isObject()) throw new IllegalArgumentException(f + ": must be an object of name → value");
        Map<String, Object> out = new LinkedHashMap<>();
        for (var it = n.fields(); it.hasNext(); ) {
            var e = it.next();
            out.put(e.getKey(), scalar(e.getValue(), f + "." + e.getKey()));
        }
        return out;
    }

    private static Object scalar(JsonNode v, String f) {
        if (v.isIntegralNumber() && v.canConvertToInt()) return v.intValue();
        if (v.isTextual()) return v.textValue();
        throw new IllegalArgumentException(f + ": values must be integers or strings, got " + v);
    }

    private static List<String> strings(JsonNode n, String f) {
        if (n == null || n.isNull()) return List.of();
        if (!n.isArray()) throw new IllegalArgumentException(f + ": must be a list");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            JsonNode v = n.get(i);
            // YAML reads an unquoted -O3 as text but 16 as a number; either is one argument.
            if (!v.isValueNode() || v.isNull()) throw new IllegalArgumentException(f + "[" + i + "]: must be a string");
            out.add(v.asText());
        }
        return out;
    }

    private static String text(JsonNode n, String field, String f, String dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isTextual()) throw new IllegalArgumentException(f + "." + field + ": must be a string");
        return v.textValue();
    }

    private static long millis(JsonNode n, String field, String f, long dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isIntegralNumber() || v.longValue() < 1 || v.longValue() > 3_600_000) {
            throw new IllegalArgumentException(f + "." + field + ": must be an integer in [1, 3600000] ms, got " + v);
        }
        return v.longValue();
    }
}

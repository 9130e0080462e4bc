package org.tunefarm.coordinator.exchange;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelCatalog;

/**
 * The table as a self-contained C99 header for command kernels: a team's own C, CUDA or OpenCL
 * code tuned through the farm, whose parameters a C program can use (the built-in Java kernels'
 * parameters mean nothing to it). An entry goes in when its op is not a built-in family, every
 * parameter is an integer, every dimension is positive and its objective is {@code latency}; the
 * header's comment says how many went in and why the others did not.
 *
 * <p>The header holds a static table and {@code tunefarm_lookup}: by CPU model (trimmed,
 * compared case-insensitively; the device class string works too), op, dtype and shape, it
 * answers the exact shape, else the nearest one within {@code TUNEFARM_MAX_DISTANCE} (sum over
 * the dimensions of |ln(a/b)|, default ln 4, a macro the includer may define first), else the
 * family default's parameters when the table carries them, else NULL: the semantics of the
 * table's shared lookup contract. It includes only {@code <ctype.h>}, {@code <math.h>} and
 * {@code <string.h>} (link with {@code -lm}), and compiles with {@code -std=c99 -Wall -Werror}:
 * every function is {@code static inline}, so an includer that uses none of them gets no
 * unused-function warning.
 */
public final class CHeader {
    /** ln 4: one dimension 4x off, or two dimensions 2x off. */
    static final double MAX_DISTANCE = Math.log(4);

    private CHeader() {}

    /** Thrown when no entry of the table can go into a header; the message says why each was left out. */
    public static final class NothingQualifies extends Exception {
        NothingQualifies(String message) {
            super(message);
        }
    }

    /** Why an entry stays out, in the order the checks run. */
    private enum LeftOut {
        BUILT_IN("built-in Java kernels"), OBJECTIVE("objective other than latency"),
        NOT_INTEGER("parameters that are not all integers"), SHAPE("dimensions that are not positive");

        final String why;

        LeftOut(String why) {
            this.why = why;
        }
    }

    public static String write(TableSnapshot t) throws NothingQualifies {
        List<TableSnapshot.Row> in = new ArrayList<>();
        Map<LeftOut, Integer> out = new java.util.EnumMap<>(LeftOut.class);
        for (TableSnapshot.Row r : t.rows()) {
            LeftOut why = leftOut(r);
            if (why == null) in.add(r);
            else out.merge(why, 1, Integer::sum);
        }
        if (in.isEmpty()) {
            throw new NothingQualifies("c-header: no entry of the table qualifies (the header is for command kernels: ops that are not "
                    + "built-in families, with integer parameters, objective latency); of " + t.rows().size() + " entries: " + reasons(out));
        }
        // Ties in the lookup go to the first entry met: the smaller kernel id, then the smaller class.
        in.sort(Comparator.comparing(TableSnapshot.Row::kernelId).thenComparing(TableSnapshot.Row::deviceClass));
        int maxDims = Math.max(1, in.stream().mapToInt(r -> r.shape().size()).max().orElse(1));
        int maxParams = Math.max(1, in.stream().mapToInt(r -> r.params().size()).max().orElse(1));
        StringBuilder h = new StringBuilder();
        comment(h, t, in.size(), out);
        h.append("#ifndef TUNEFARM_TABLE_H\n#define TUNEFARM_TABLE_H\n\n");
        h.append("#include <ctype.h>\n#include <math.h>\n#include <string.h>\n\n");
        h.append("#define TUNEFARM_SCHEMA ").append(literal(t.schema())).append('\n');
        h.append("#define TUNEFARM_FARM_ID ").append(literal(t.farmId() == null ? "" : t.farmId())).append("   /* \"\" when the table has none (schema /1) */\n");
        h.append("#define TUNEFARM_GENERATED_AT ").append(t.generatedAt() == null ? 0 : t.generatedAt()).append("LL   /* epoch ms; 0 when the table has none */\n");
        h.append("#define TUNEFARM_SWEEPS ").append(literal(String.join(",", t.sweeps()))).append('\n');
        h.append("#define TUNEFARM_ENTRY_COUNT ").append(in.size()).append('\n');
        h.append("#define TUNEFARM_MAX_DIMS ").append(maxDims).append('\n');
        h.append("#define TUNEFARM_MAX_PARAMS ").append(maxParams).append("\n\n");
        h.append("#ifndef TUNEFARM_MAX_DISTANCE\n#define TUNEFARM_MAX_DISTANCE ").append(MAX_DISTANCE).append("   /* ln 4 */\n#endif\n\n");
        h.append(TYPES);
        h.append("static const tunefarm_entry tunefarm_entries[TUNEFARM_ENTRY_COUNT] = {\n");
        for (TableSnapshot.Row r : in) entry(h, r, t.cpuModels().getOrDefault(r.deviceClass(), ""));
        h.append("};\n\n");
        h.append(FUNCTIONS);
        h.append("#endif /* TUNEFARM_TABLE_H */\n");
        return h.toString();
    }

    private static LeftOut leftOut(TableSnapshot.Row r) {
        if (KernelCatalog.isBuiltIn(r.op())) return LeftOut.BUILT_IN;
        if (!r.objective().equals(TableSnapshot.LATENCY)) return LeftOut.OBJECTIVE;
        if (!integers(r.params())) return LeftOut.NOT_INTEGER;
        if (r.shape().values().stream().anyMatch(v -> v <= 0)) return LeftOut.SHAPE;
        return null;
    }

    private static boolean integers(JsonNode params) {
        for (JsonNode v : params) if (!v.isIntegralNumber() || !v.canConvertToLong()) return false;
        return true;
    }

    private static String reasons(Map<LeftOut, Integer> out) {
        if (out.isEmpty()) return "none";
        List<String> parts = new ArrayList<>();
        out.forEach((k, n) -> parts.add(n + " with " + k.why));
        return String.join(", ", parts);
    }

    private static void comment(StringBuilder h, TableSnapshot t, int included, Map<LeftOut, Integer> out) {
        int left = out.values().stream().mapToInt(Integer::intValue).sum();
        String when = t.generatedAt() == null ? "unknown" : Instant.ofEpochMilli(t.generatedAt()) + " (" + t.generatedAt() + ")";
        h.append("/*\n");
        h.append(" * tunefarm best-kernel table for C programs, written by `tunefarm table export --format c-header`.\n");
        h.append(" * schema ").append(safe(t.schema())).append(", farm ").append(safe(t.farmId() == null ? "unknown" : t.farmId()))
                .append(", generated at ").append(when).append('\n');
        h.append(" * sweeps: ").append(safe(t.sweeps().isEmpty() ? "none" : String.join(", ", t.sweeps()))).append('\n');
        h.append(" *\n");
        h.append(" * Entries: command kernels only (ops that are not tunefarm's built-in Java families), with\n");
        h.append(" * integer parameters, objective latency: ").append(included).append(" of ").append(included + left).append(" entries");
        h.append(left == 0 ? ".\n" : "; left out: " + reasons(out) + ".\n");
        h.append(" *\n");
        h.append(" * tunefarm_lookup(cpu_model, op, dtype, ndims, dim_names, dims, &choice):\n");
        h.append(" *   device:  the classes whose CPU model equals cpu_model (both trimmed, compared\n");
        h.append(" *            case-insensitively), or whose device class string equals it;\n");
        h.append(" *   exact:   an entry of that op and dtype with the same shape;\n");
        h.append(" *   nearest: else the entry of the smallest distance, the sum over the dimensions of\n");
        h.append(" *            |ln(a/b)| (same dimension names only), if at most TUNEFARM_MAX_DISTANCE\n");
        h.append(" *            (default ln 4: one dimension 4x off, or two 2x off; define it before the\n");
        h.append(" *            #include to change it); ties go to the smaller kernel id, then device class;\n");
        h.append(" *   default: else the family default's parameters, when an entry of that op and dtype\n");
        h.append(" *            carries them (the smallest kernel id that does);\n");
        h.append(" *   else NULL. choice.match says which; choice.params are named by entry->param_names.\n");
        h.append(" * Link with -lm.\n");
        h.append(" */\n");
    }

    private static void entry(StringBuilder h, TableSnapshot.Row r, String cpuModel) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        // In name order, so the same table always gives the same header.
        Map<String, JsonNode> sorted = new java.util.TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = r.params().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            sorted.put(p.getKey(), p.getValue());
        }
        sorted.forEach((name, v) -> {
            names.add(name);
            values.add(integer(v.asLong()));
        });
        List<String> defaults = defaults(r.defaultParams(), names);
        h.append("    {\n");
        h.append("        .device_class = ").append(literal(r.deviceClass())).append(",\n");
        h.append("        .cpu_model = ").append(literal(cpuModel)).append(",\n");
        h.append("        .op = ").append(literal(r.op())).append(",\n");
        h.append("        .dtype = ").append(literal(r.dtype())).append(",\n");
        h.append("        .kernel_id = ").append(literal(r.kernelId())).append(",\n");
        h.append("        .ndims = ").append(r.shape().size()).append(",\n");
        h.append("        .dim_names = ").append(list(r.shape().keySet().stream().map(CHeader::literal).toList())).append(",\n");
        h.append("        .dims = ").append(list(r.shape().values().stream().map(CHeader::integer).toList())).append(",\n");
        h.append("        .nparams = ").append(names.size()).append(",\n");
        h.append("        .param_names = ").append(list(names.stream().map(CHeader::literal).toList())).append(",\n");
        h.append("        .params = ").append(list(values)).append(",\n");
        h.append("        .has_default = ").append(defaults == null ? 0 : 1).append(",\n");
        h.append("        .default_params = ").append(list(defaults == null ? List.of() : defaults)).append(",\n");
        h.append("        .median_ns = ").append(r.medianNs()).append(",\n");
        h.append("        .sweep_id = ").append(literal(r.sweepId() == null ? "" : r.sweepId())).append('\n');
        h.append("    },\n");
    }

    /** The default's values in the winner's parameter order, or null unless it has exactly those integer parameters. */
    private static List<String> defaults(ObjectNode d, List<String> names) {
        if (d == null || d.size() != names.size()) return null;
        List<String> out = new ArrayList<>();
        for (String n : names) {
            JsonNode v = d.get(n);
            if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) return null;
            out.add(integer(v.asLong()));
        }
        return out;
    }

    private static String list(List<String> items) {
        return items.isEmpty() ? "{0}" : "{" + String.join(", ", items) + "}";
    }

    /** A long long literal; the most negative value has none of its own. */
    static String integer(long v) {
        return v == Long.MIN_VALUE ? "(-9223372036854775807LL - 1)" : v + "LL";
    }

    /**
     * A C string literal of the UTF-8 bytes: printable ASCII as is, {@code "} and {@code \} escaped,
     * {@code ?} escaped (C99 reads {@code ??=} and its kin as trigraphs), any other byte as a
     * three-digit octal escape (a hex escape would swallow the digits after it).
     */
    static String literal(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c == '"' || c == '\\' || c == '?') b.append('\\').append((char) c);
            else if (c >= 0x20 && c < 0x7f) b.append((char) c);
            else b.append('\\').append(String.format("%03o", c));
        }
        return b.append('"').toString();
    }

    /** Text for a comment: printable ASCII only, and nothing that ends it or reads as a trigraph. */
    static String safe(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) b.append(c >= 0x20 && c < 0x7f ? c : '_');
        return b.toString().replace("*/", "*_/").replace("/*", "/_*").replace("??", "?_?");
    }

    private static final String TYPES = """
            typedef enum { TUNEFARM_EXACT = 0, TUNEFARM_NEAREST = 1, TUNEFARM_DEFAULT = 2 } tunefarm_match;

            /* One tuned kernel on one device class: the winner of its (class, op, shape, dtype). */
            typedef struct {
                const char *device_class;
                const char *cpu_model;        /* "" when the table does not carry the class's profile */
                const char *op;
                const char *dtype;
                const char *kernel_id;        /* e.g. c_sgemm[K=128,M=128,N=128]:fp32 */
                int ndims;
                const char *dim_names[TUNEFARM_MAX_DIMS];
                long long dims[TUNEFARM_MAX_DIMS];
                int nparams;
                const char *param_names[TUNEFARM_MAX_PARAMS];
                long long params[TUNEFARM_MAX_PARAMS];
                int has_default;              /* whether default_params holds the family default */
                long long default_params[TUNEFARM_MAX_PARAMS];   /* named by param_names */
                double median_ns;             /* the winner's median time per call */
                const char *sweep_id;
            } tunefarm_entry;

            /* A lookup's answer. */
            typedef struct {
                const tunefarm_entry *entry;  /* NULL when there is no answer */
                tunefarm_match match;
                const long long *params;      /* the values to use: entry->params, or entry->default_params for TUNEFARM_DEFAULT */
                double distance;              /* to the nearest tuned shape (0 when exact; HUGE_VAL when none compares) */
            } tunefarm_choice;

            """;

    private static final String FUNCTIONS = """
            static inline const char *tunefarm_match_name(tunefarm_match m) {
                return m == TUNEFARM_EXACT ? "exact" : m == TUNEFARM_NEAREST ? "nearest" : "default";
            }

            /* Equal after trimming white space, ignoring case; an empty string equals nothing. */
            static inline int tunefarm_same_model_(const char *a, const char *b) {
                size_t na, nb, i;
                while (isspace((unsigned char) *a)) a++;
                while (isspace((unsigned char) *b)) b++;
                na = strlen(a);
                nb = strlen(b);
                while (na > 0 && isspace((unsigned char) a[na - 1])) na--;
                while (nb > 0 && isspace((unsigned char) b[nb - 1])) nb--;
                if (na == 0 || na != nb) return 0;
                for (i = 0; i < na; i++) {
                    if (tolower((unsigned char) a[i]) != tolower((unsigned char) b[i])) return 0;
                }
                return 1;
            }

            /* Sum over the dimensions of |ln(a/b)|; -1 when the shapes have other dimension names. */
            static inline double tunefarm_distance_(const tunefarm_entry *e, int ndims, const char *const *names, const long long *dims) {
                double d = 0.0;
                int i, j;
                if (ndims != e->ndims) return -1.0;
                for (i = 0; i < ndims; i++) {
                    if (names[i] == NULL || dims[i] <= 0) return -1.0;
                    for (j = 0; j < i; j++) {
                        if (strcmp(names[j], names[i]) == 0) return -1.0;
                    }
                    for (j = 0; j < e->ndims; j++) {
                        if (strcmp(names[i], e->dim_names[j]) == 0) break;
                    }
                    if (j == e->ndims) return -1.0;
                    d += fabs(log((double) dims[i] / (double) e->dims[j]));
                }
                return d;
            }

            /*
             * The entry for this device, op, dtype and shape (dim_names[i] = dims[i]); NULL when none.
             * choice may be NULL when only the entry is wanted (then exact and nearest give the
             * winner's params, default gives entry->default_params: ask with a choice to know which).
             */
            static inline const tunefarm_entry *tunefarm_lookup(const char *cpu_model, const char *op, const char *dtype, int ndims,
                                                               const char *const *dim_names, const long long *dims, tunefarm_choice *choice) {
                tunefarm_choice local;
                const tunefarm_entry *best = NULL, *fallback = NULL;
                double best_d = HUGE_VAL;
                int i;
                if (choice == NULL) choice = &local;
                choice->entry = NULL;
                choice->match = TUNEFARM_DEFAULT;
                choice->params = NULL;
                choice->distance = HUGE_VAL;
                if (cpu_model == NULL || op == NULL || dtype == NULL || ndims < 0 || (ndims > 0 && (dim_names == NULL || dims == NULL))) return NULL;
                for (i = 0; i < TUNEFARM_ENTRY_COUNT; i++) {
                    const tunefarm_entry *e = &tunefarm_entries[i];
                    double d;
                    if (strcmp(e->op, op) != 0 || strcmp(e->dtype, dtype) != 0) continue;
                    if (!tunefarm_same_model_(e->cpu_model, cpu_model) && strcmp(e->device_class, cpu_model) != 0) continue;
                    if (e->has_default && fallback == NULL) fallback = e;
                    d = tunefarm_distance_(e, ndims, dim_names, dims);
                    if (d >= 0.0 && d < best_d) {
                        best = e;
                        best_d = d;
                    }
                }
                choice->distance = best_d;
                if (best != NULL && best_d <= TUNEFARM_MAX_DISTANCE) {
                    choice->entry = best;
                    choice->params = best->params;
                    choice->match = best_d == 0.0 ? TUNEFARM_EXACT : TUNEFARM_NEAREST;
                } else if (fallback != NULL) {
                    choice->entry = fallback;
                    choice->params = fallback->default_params;
                    choice->match = TUNEFARM_DEFAULT;
                }
                return choice->entry;
            }

            """;
}

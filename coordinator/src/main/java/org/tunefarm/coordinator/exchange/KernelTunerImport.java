package org.tunefarm.coordinator.exchange;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tunefarm.kernel.KernelCatalog;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/**
 * A Kernel Tuner cache file turned into records, so a team brings what it already measured. Every
 * configuration in {@code cache} becomes a {@link Measurement} of one sweep whose id is derived
 * from the file's bytes ({@code kt-} and 12 hex digits of their SHA-256): importing the same file
 * into the same device class again makes records with the same ids, which the record log keeps
 * once.
 *
 * <ul>
 *   <li>The kernel: the op is {@code kernel_name}, the shape {@code problem_size} (an integer is
 *       {@code x}; a list is {@code x}, {@code y}, {@code z}; absent or {@code "callable"}: no
 *       dimensions), the dtype {@code unknown} (Kernel Tuner does not record one). A cache that
 *       {@code tunefarm table export --format kernel-tuner} wrote carries its kernel in
 *       {@code tunefarm.kernel} (op, named shape, dtype), which wins.</li>
 *   <li>The status: a numeric {@code time} is {@code OK}, timed by {@code times} (ms, each one a
 *       sample) or else by {@code time} alone; the failures Kernel Tuner writes are
 *       {@code InvalidConfig} → {@code INVALID}, {@code CompilationFailedConfig} →
 *       {@code BUILD_FAILED}, {@code RuntimeFailedConfig} → {@code CRASH}.</li>
 *   <li>The candidate index: the configuration's mixed-radix index over {@code tune_params}
 *       (first parameter most significant), as replay numbers the same space.</li>
 * </ul>
 *
 * <p>A file that is not a cache (not JSON, no {@code cache}, no parameters, a status no Kernel
 * Tuner writes, an op that names a built-in family) is {@link Invalid}, naming the field, and
 * nothing of it is kept. A configuration that cannot be a record (a value outside its domain,
 * no time, a time that is not a positive number of ms below an hour) is refused on its own,
 * with the reason. A file cut short (an interrupted run, which Kernel Tuner itself reads on) gives
 * the configurations written in full.
 */
public final class KernelTunerImport {
    /** The {@code agentId} of imported records: no agent of this farm measured them. */
    public static final String AGENT = "kernel-tuner-import";
    /** Device class names: what {@code DeviceProfile} makes, and names a person gives a GPU. */
    public static final int MAX_CLASS = 128;
    static final String DTYPE = "unknown";
    private static final double MAX_NS = 3.6e12;
    private static final int MAX_KEY_SHOWN = 200;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder().appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd().appendOffset("+HH:MM", "Z").toFormatter();

    private KernelTunerImport() {}

    /** The file is not a cache this farm can take; {@code field} names what is wrong. */
    public static final class Invalid extends Exception {
        private final String field;

        Invalid(String field, String message) {
            super(message);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /** A configuration left out, with why. */
    public record Refused(String key, String reason) {}

    /**
     * What a cache file holds, as records.
     *
     * @param device    the file's {@code device_name}
     * @param truncated whether the file stops early (an interrupted run)
     */
    public record Batch(String sweepId, String deviceClass, KernelKey kernel, String device, List<Measurement> measurements,
                        List<Refused> refused, boolean truncated) {}

    /** Checks a device class name given for an import; the message names the query parameter. */
    public static void checkClass(String deviceClass) throws Invalid {
        if (deviceClass == null || deviceClass.isEmpty()) throw new Invalid("deviceClass", "is required: the device class the measurements were made on");
        if (deviceClass.length() > MAX_CLASS) throw new Invalid("deviceClass", "longer than " + MAX_CLASS + " characters");
        if (!deviceClass.matches("[A-Za-z0-9._+-]+")) throw new Invalid("deviceClass", "only letters, digits and . _ + - are allowed");
    }

    /**
     * @param body the cache file's bytes (plain JSON)
     * @param now  epoch ms, the time of configurations that carry no {@code timestamp}
     */
    public static Batch read(byte[] body, String deviceClass, long now) throws Invalid {
        checkClass(deviceClass);
        Map<String, JsonNode> header = new HashMap<>();
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        boolean truncated = false;
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new Invalid("body", "not a Kernel Tuner cache file (expected a JSON object)");
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("cache") && p.currentToken() == JsonToken.START_OBJECT) {
                    header.put("cache", JSON.createObjectNode());
                    for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                        String key = p.currentName();
                        p.nextToken();
                        JsonNode entry = p.readValueAsTree();
                        if (entries.putIfAbsent(key, entry) != null) throw new Invalid("cache", "the key '" + clip(key) + "' appears twice");
                    }
                } else {
                    header.put(field, p.readValueAsTree());
                }
            }
        } catch (JsonEOFException e) {
            truncated = true; // an interrupted run: keep what was complete
        } catch (JsonProcessingException e) {
            throw new Invalid("body", "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Invalid("body", "unreadable: " + e.getMessage());
        }
        if (!header.containsKey("cache")) throw new Invalid("cache", "missing: a Kernel Tuner cache keeps its configurations in 'cache'" + (truncated ? " (the file is cut short)" : ""));
        List<String> keys = keys(header.get("tune_params_keys"));
        List<List<JsonNode>> domains = domains(header.get("tune_params"), keys);
        long[] weights = weights(domains);
        KernelKey kernel = kernel(header);
        String device = text(header.get("device_name"));
        String sweepId = sweepId(body);
        List<Measurement> out = new ArrayList<>();
        List<Refused> refused = new ArrayList<>();
        Map<Long, String> seen = new HashMap<>();
        int order = 0;
        for (Map.Entry<String, JsonNode> e : entries.entrySet()) {
            String key = e.getKey();
            String f = "cache[\"" + clip(key) + "\"]";
            JsonNode entry = e.getValue();
            if (!entry.isObject()) throw new Invalid(f, "not an object");
            Status status = status(entry.get("time"), f + ".time");
            Map<String, Object> params = new LinkedHashMap<>();
            long index = 0;
            String why = null;
            for (int i = 0; i < keys.size() && why == null; i++) {
                JsonNode v = entry.get(keys.get(i));
                int choice = v == null ? -1 : position(domains.get(i), v);
                if (v == null) why = "no value for parameter '" + keys.get(i) + "'";
                else if (choice < 0) why = "parameter '" + keys.get(i) + "' = " + clip(v.toString()) + " is not in tune_params";
                else {
                    params.put(keys.get(i), JSON.convertValue(v, Object.class));
                    index += choice * weights[i];
                }
            }
            Stats stats = null;
            if (why == null && status == Status.OK) {
                stats = stats(entry);
                if (stats == null) why = "time is not a positive number of ms below an hour";
            }
            if (why == null && seen.containsKey(index)) why = "the same configuration as '" + clip(seen.get(index)) + "'";
            if (why == null && status == null) why = "no time";
            if (why != null) {
                refused.add(new Refused(clip(key), why));
                continue;
            }
            seen.put(index, key);
            long at = timestamp(entry.get("timestamp"), now);
            String detail = status == Status.OK ? "imported from a Kernel Tuner cache (" + clip(device) + ")"
                    : entry.get("time").asText() + ", imported from a Kernel Tuner cache (" + clip(device) + ")";
            out.add(new Measurement(sweepId, kernel, index, params, status, stats, null, null, null, detail, AGENT, deviceClass, at, at, order++));
        }
        return new Batch(sweepId, deviceClass, kernel, device, List.copyOf(out), List.copyOf(refused), truncated);
    }

    /** {@code kt-} and the first 12 hex digits of the SHA-256 of the file's bytes. */
    static String sweepId(byte[] body) {
        try {
            return "kt-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static List<String> keys(JsonNode n) throws Invalid {
        if (n == null || !n.isArray() || n.isEmpty()) throw new Invalid("tune_params_keys", "missing or empty: the parameter names, in order");
        List<String> keys = new ArrayList<>();
        for (JsonNode k : n) {
            if (!k.isTextual() || k.asText().isEmpty() || k.asText().length() > 64) throw new Invalid("tune_params_keys", "each must be a name of 1 to 64 characters");
            if (keys.contains(k.asText())) throw new Invalid("tune_params_keys", "'" + k.asText() + "' appears twice");
            keys.add(k.asText());
        }
        return keys;
    }

    private static List<List<JsonNode>> domains(JsonNode n, List<String> keys) throws Invalid {
        if (n == null || !n.isObject()) throw new Invalid("tune_params", "missing or not an object: each parameter's values");
        List<List<JsonNode>> out = new ArrayList<>();
        for (String k : keys) {
            JsonNode d = n.get(k);
            if (d == null || !d.isArray() || d.isEmpty()) throw new Invalid("tune_params." + k, "missing or empty");
            List<JsonNode> values = new ArrayList<>();
            d.forEach(values::add);
            out.add(values);
        }
        return out;
    }

    /** Mixed-radix weights, the first parameter the most significant digit. */
    private static long[] weights(List<List<JsonNode>> domains) throws Invalid {
        long[] w = new long[domains.size()];
        long product = 1;
        for (int i = domains.size() - 1; i >= 0; i--) {
            w[i] = product;
            try {
                product = Math.multiplyExact(product, domains.get(i).size());
            } catch (ArithmeticException e) {
                throw new Invalid("tune_params", "more configurations than a 64-bit index counts");
            }
        }
        return w;
    }

    private static int position(List<JsonNode> domain, JsonNode v) {
        for (int i = 0; i < domain.size(); i++) {
            JsonNode d = domain.get(i);
            if (d.equals(v) || (d.isNumber() && v.isNumber() && d.asDouble() == v.asDouble())) return i;
        }
        return -1;
    }

    private static KernelKey kernel(Map<String, JsonNode> header) throws Invalid {
        JsonNode ours = header.getOrDefault("tunefarm", JSON.missingNode()).path("kernel");
        if (ours.isObject()) {
            String op = op(ours.path("op"), "tunefarm.kernel.op");
            Map<String, Integer> shape = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = ours.path("shape").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> d = it.next();
                shape.put(d.getKey(), size(d.getValue(), "tunefarm.kernel.shape." + d.getKey()));
            }
            JsonNode dtype = ours.path("dtype");
            if (!dtype.isTextual() || dtype.asText().isEmpty() || dtype.asText().length() > 32) throw new Invalid("tunefarm.kernel.dtype", "must be a name of 1 to 32 characters");
            return new KernelKey(op, shape, dtype.asText());
        }
        String op = op(header.get("kernel_name"), "kernel_name");
        Map<String, Integer> shape = new TreeMap<>();
        JsonNode size = header.get("problem_size");
        if (size != null && size.isNumber()) {
            shape.put("x", size(size, "problem_size"));
        } else if (size != null && size.isArray()) {
            if (size.isEmpty() || size.size() > 3) throw new Invalid("problem_size", "must be 1 to 3 sizes (x, y, z)");
            String[] names = {"x", "y", "z"};
            for (int i = 0; i < size.size(); i++) shape.put(names[i], size(size.get(i), "problem_size[" + i + "]"));
        } else if (size != null && !size.isNull() && !(size.isTextual() && size.asText().equals("callable"))) {
            throw new Invalid("problem_size", "must be a size or a list of sizes");
        }
        return new KernelKey(op, shape, DTYPE);
    }

    private static String op(JsonNode n, String field) throws Invalid {
        if (n == null || !n.isTextual() || n.asText().isEmpty() || n.asText().length() > 64 || !n.asText().matches("[A-Za-z0-9_.-]+")) {
            throw new Invalid(field, "must be a kernel name of 1 to 64 letters, digits, '_', '.' or '-'");
        }
        String op = n.asText();
        // A built-in family reads its own dimensions from a key (GFLOP/s, the dashboard): a foreign shape must not borrow its name.
        if (KernelCatalog.isBuiltIn(op) || op.startsWith("replay.")) throw new Invalid(field, "'" + op + "' names a built-in kernel of this farm; rename the kernel in the file");
        return op;
    }

    private static int size(JsonNode n, String field) throws Invalid {
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 1) throw new Invalid(field, "must be a positive integer, got " + clip(n.toString()));
        return n.asInt();
    }

    /** OK for a time, a failure for the strings Kernel Tuner writes, null when there is no time. */
    private static Status status(JsonNode time, String field) throws Invalid {
        if (time == null || time.isNull()) return null;
        if (time.isNumber()) return Status.OK;
        if (time.isTextual()) {
            switch (time.asText()) {
                case "InvalidConfig": return Status.INVALID;
                case "CompilationFailedConfig": return Status.BUILD_FAILED;
                case "RuntimeFailedConfig": return Status.CRASH;
                default: break;
            }
        }
        throw new Invalid(field, "unknown status " + clip(time.toString())
                + ": expected a time in ms, or InvalidConfig, CompilationFailedConfig or RuntimeFailedConfig");
    }

    /** Per-call statistics from {@code times} (each a sample), else from {@code time}; null when not plausible. */
    private static Stats stats(JsonNode entry) {
        JsonNode times = entry.get("times");
        if (times != null && times.isArray() && !times.isEmpty()) {
            double[] ns = new double[times.size()];
            for (int i = 0; i < ns.length; i++) {
                JsonNode t = times.get(i);
                ns[i] = t.isNumber() ? t.asDouble() * 1e6 : Double.NaN;
                if (!(ns[i] > 0 && ns[i] <= MAX_NS)) return null;
            }
            return Stats.of(ns, 1);
        }
        double ns = entry.get("time").asDouble() * 1e6;
        return ns > 0 && ns <= MAX_NS ? new Stats(ns, ns, ns, 0, 0, 1, 1) : null;
    }

    private static long timestamp(JsonNode n, long now) {
        if (n == null || !n.isTextual()) return now;
        try {
            long at = OffsetDateTime.parse(n.asText(), TIMESTAMP).toInstant().toEpochMilli();
            return at >= 0 && at <= now ? at : now;
        } catch (DateTimeParseException e) {
            return now;
        }
    }

    private static String text(JsonNode n) {
        return n == null ? "" : n.isTextual() ? n.textValue() : n.toString();
    }

    private static String clip(String s) {
        return s.length() > MAX_KEY_SHOWN ? s.substring(0, MAX_KEY_SHOWN) + "..." : s;
    }
}

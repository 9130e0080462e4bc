package org.tunefarm.replay;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * Reads a Kernel Tuner cache file (gzipped or plain JSON) into a {@link RecordedSpace}.
 *
 * <p>The parameters are {@code tune_params_keys} with domains {@code tune_params}. A domain of
 * integers stays integers; any other domain (floats, booleans, mixed) becomes strings written the
 * way Jackson prints the JSON value ({@code 0.5} becomes {@code "0.5"}), because a
 * {@link Parameter} holds only integers and strings and a float's choice is all a strategy needs.
 * The configurations present are the valid space; each one's time is the median of {@code times}
 * (the mean in {@code time} is pulled by warm-up outliers), or {@code time} when there are no
 * repeats; a string {@code time} is a failure.
 *
 * <p>Files written by an interrupted run stop mid-object. The file is parsed as a stream, one
 * cache entry at a time, so such a file yields every entry written in full before the cut.
 */
public final class KernelTunerCache {
    private static final ObjectMapper JSON = new ObjectMapper();

    private KernelTunerCache() {}

    public static RecordedSpace read(Path file) throws IOException {
        String name = file.getFileName().toString().replaceFirst("\\.gz$", "").replaceFirst("\\.json$", "");
        try (InputStream in = open(file)) {
            return read(in, name);
        }
    }

    /** Reads from a stream that is gzipped or not (sniffed from the first two bytes). */
    public static RecordedSpace read(InputStream raw, String name) throws IOException {
        InputStream in = new BufferedInputStream(raw);
        in.mark(2);
        int b0 = in.read(), b1 = in.read();
        in.reset();
        if (b0 == 0x1f && b1 == 0x8b) in = new GZIPInputStream(in, 1 << 16);
        Map<String, JsonNode> header = new HashMap<>();
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        boolean truncated = false;
        try (JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException(name + ": not a Kernel Tuner cache file (expected a JSON object)");
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("cache") && p.currentToken() == JsonToken.START_OBJECT) {
                    for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                        String key = p.currentName();
                        p.nextToken();
                        entries.add(Map.entry(key, p.readValueAsTree()));
                    }
                } else {
                    header.put(field, p.readValueAsTree());
                }
            }
        } catch (JsonEOFException | EOFException e) {
            truncated = true; // an interrupted run: keep what was complete
        }
        return build(name, header, entries, truncated);
    }

    private static RecordedSpace build(String name, Map<String, JsonNode> header, List<Map.Entry<String, JsonNode>> entries, boolean truncated) throws IOException {
        JsonNode keys = header.get("tune_params_keys");
        JsonNode domains = header.get("tune_params");
        if (keys == null || !keys.isArray() || domains == null || !domains.isObject()) {
            throw new IOException(name + ": missing tune_params_keys or tune_params" + (truncated ? " (the file is cut short)" : ""));
        }
        List<Parameter> parameters = new ArrayList<>();
        boolean[] integer = new boolean[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i).asText();
            JsonNode domain = domains.get(key);
            if (domain == null || !domain.isArray() || domain.isEmpty()) throw new IOException(name + ": parameter '" + key + "' has no domain in tune_params");
            integer[i] = true;
            for (JsonNode v : domain) integer[i] &= v.isIntegralNumber() && v.canConvertToInt();
            List<Object> values = new ArrayList<>();
            for (JsonNode v : domain) values.add(value(v, integer[i]));
            try {
                parameters.add(new Parameter(key, values));
            } catch (IllegalArgumentException e) {
                throw new IOException(name + ": " + e.getMessage(), e);
            }
        }
        SearchSpace bare = new SearchSpace(parameters, List.of());
        Map<Long, RecordedSpace.Recording> recordings = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : entries) {
            long index = indexOf(bare, e.getKey(), e.getValue(), integer);
            if (index >= 0) recordings.put(index, recording(e.getValue()));
        }
        long[] members = recordings.keySet().stream().mapToLong(Long::longValue).toArray();
        MembershipConstraint valid = new MembershipConstraint(members, "recorded in " + name + " (" + members.length + " configurations)");
        SearchSpace space = new SearchSpace(parameters, List.of(valid));
        return new RecordedSpace(name, text(header.get("device_name")), text(header.get("kernel_name")), space, recordings, truncated);
    }

    private static Object value(JsonNode v, boolean integer) {
        if (integer) return v.intValue();
        return v.isTextual() ? v.textValue() : v.asText();
    }

    /** The entry's index; its own fields first, else the comma-joined key; -1 when a value is outside the domains. */
    private static long indexOf(SearchSpace space, String key, JsonNode entry, boolean[] integer) {
        List<Parameter> ps = space.parameters();
        String[] parts = key.split(",", -1);
        int[] choices = new int[ps.size()];
        for (int i = 0; i < choices.length; i++) {
            JsonNode v = entry.get(ps.get(i).name());
            Object value;
            if (v != null && !v.isNull()) value = integer[i] && v.isNumber() ? (Object) v.numberValue() : value(v, false);
            else if (parts.length == ps.size()) value = integer[i] ? parseInt(parts[i].trim()) : parts[i].trim();
            else return -1;
            choices[i] = ps.get(i).choiceOf(value);
            if (choices[i] < 0) return -1;
        }
        return space.index(choices);
    }

    private static Object parseInt(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return s;
        }
    }

    private static RecordedSpace.Recording recording(JsonNode entry) {
        JsonNode times = entry.get("times");
        if (times != null && times.isArray() && !times.isEmpty()) {
            double[] ts = new double[times.size()];
            for (int i = 0; i < ts.length; i++) ts[i] = times.get(i).asDouble(Double.NaN);
            Arrays.sort(ts);
            int n = ts.length;
            double median = n % 2 == 1 ? ts[n / 2] : (ts[n / 2 - 1] + ts[n / 2]) / 2;
            if (Double.isFinite(median)) return new RecordedSpace.Recording(median, null);
        }
        JsonNode time = entry.get("time");
        if (time != null && time.isNumber() && Double.isFinite(time.doubleValue())) return new RecordedSpace.Recording(time.doubleValue(), null);
        String why = time == null ? "NoTime" : time.isTextual() ? time.textValue() : time.toString();
        return new RecordedSpace.Recording(Double.NaN, why);
    }

    private static String text(JsonNode n) {
        return n == null ? "" : n.isTextual() ? n.textValue() : n.toString();
    }

    private static InputStream open(Path file) throws IOException {
        return Files.newInputStream(file);
    }
}

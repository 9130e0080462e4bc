package org.tunefarm.coordinator.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.measure.Thermal;
import org.tunefarm.protocol.Protocol;

/**
 * Reads a record line as a {@link Measurement}. A line as this version writes it (every field in
 * the order the record declares it, optional ones left out or in place, values of their own JSON
 * type) is read token by token with the streaming parser; any other line (an older or newer
 * version's, a field out of order, a type databind would coerce or refuse, damage) goes to the data
 * binder, which gives it the meaning and the error it always had. So both paths agree by
 * construction on everything but the canonical form, and the test holds them equal on that.
 *
 * <p>Why: a start or a catch-up reads every line of a long history, and binding through databind
 * was about half of a start's CPU (some 8 us a record of 800 bytes; the walk here about a third of that).
 * A log of 10^7 records is read in one pass, so those microseconds are a minute.
 */
public final class MeasurementReader {
    private static final ObjectReader BINDER = Protocol.JSON.readerFor(Measurement.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final JsonFactory FACTORY = Protocol.JSON.getFactory();

    private MeasurementReader() {}

    /** Reads {@code line[from, from + length)}, UTF-8, one JSON object and nothing after it. @throws IOException when databind refuses it too */
    public static Measurement read(byte[] line, int from, int length) throws IOException {
        Measurement m = canonical(line, from, length);
        return m != null ? m : BINDER.readValue(line, from, length);
    }

    /** {@link #read(byte[], int, int)} of a line held as text. */
    public static Measurement read(String line) throws IOException {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return read(b, 0, b.length);
    }

    /** The measurement when the line is in canonical form, else null (the caller binds it). */
    static Measurement canonical(byte[] line, int from, int length) {
        try (JsonParser p = FACTORY.createParser(line, from, length)) {
            Measurement m = measurement(p);
            return m != null && p.nextToken() == null ? m : null;
        } catch (IOException | RuntimeException e) {
            return null; // not canonical, or not JSON: databind says which, in its words
        }
    }

    /** Thrown inside the walk when the line leaves the canonical form; never escapes {@link #canonical}. */
    private static final class NotCanonical extends RuntimeException {
        static final NotCanonical INSTANCE = new NotCanonical();

        private NotCanonical() {
            super(null, null, false, false);
        }
    }

    private static Measurement measurement(JsonParser p) throws IOException {
        expect(p.nextToken() == JsonToken.START_OBJECT);
        String sweepId = text(p, "sweepId");
        KernelKey key = key(p);
        long index = longField(p, "index");
        Map<String, Object> params = params(p);
        field(p, "status");
        expect(p.nextToken() == JsonToken.VALUE_STRING);
        Status status = Status.of(p.getText());
        Stats stats = stats(p);
        Double maxError = number(p, "maxError");
        SensorReading before = sensors(p, "before");
        SensorReading after = sensors(p, "after");
        String detail = text(p, "detail");
        String agentId = text(p, "agentId");
        String deviceClass = text(p, "deviceClass");
        long startedAt = longField(p, "startedAt");
        long finishedAt = longField(p, "finishedAt");
        int order = intField(p, "order");
        int round = intField(p, "round");
        // The optional tail: each in its place, or left out.
        String name = p.nextFieldName();
        Thermal thermal = null;
        if ("thermal".equals(name)) {
            thermal = thermal(p);
            name = p.nextFieldName();
        }
        Double sustainedNs = null;
        if ("sustainedNs".equals(name)) {
            sustainedNs = numberValue(p, false);
            name = p.nextFieldName();
        }
        Double energyJ = null;
        if ("energyJ".equals(name)) {
            energyJ = numberValue(p, false);
            name = p.nextFieldName();
        }
        int implementation = 0;
        if ("implementation".equals(name)) {
            implementation = intValue(p);
            name = p.nextFieldName();
        }
        expect(name == null && p.currentToken() == JsonToken.END_OBJECT);
        return new Measurement(sweepId, key, index, params, status, stats, maxError, before, after, detail, agentId, deviceClass, startedAt, finishedAt,
                order, round, thermal, sustainedNs, energyJ, implementation);
    }

    private static KernelKey key(JsonParser p) throws IOException {
        field(p, "key");
        expect(p.nextToken() == JsonToken.START_OBJECT);
        String op = text(p, "op");
        field(p, "shape");
        expect(p.nextToken() == JsonToken.START_OBJECT);
        Map<String, Integer> shape = new LinkedHashMap<>();
        for (String d = p.nextFieldName(); d != null; d = p.nextFieldName()) {
            expect(shape.put(d, intValue(p)) == null);
        }
        expect(p.currentToken() == JsonToken.END_OBJECT);
        String dtype = text(p, "dtype");
        expect(op != null && dtype != null && p.nextToken() == JsonToken.END_OBJECT);
        return new KernelKey(op, shape, dtype);
    }

    /** Parameter values as databind reads them into {@code Object}: Integer, else Long; Double; String; Boolean; null. */
    private static Map<String, Object> params(JsonParser p) throws IOException {
        field(p, "params");
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t == JsonToken.START_OBJECT);
        Map<String, Object> params = new LinkedHashMap<>();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            Object v = switch (p.nextToken()) {
                case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
                    case INT -> p.getIntValue();
                    case LONG -> p.getLongValue();
                    default -> throw NotCanonical.INSTANCE;
                };
                case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
                case VALUE_STRING -> p.getText();
                case VALUE_TRUE -> Boolean.TRUE;
                case VALUE_FALSE -> Boolean.FALSE;
                case VALUE_NULL -> null;
                default -> throw NotCanonical.INSTANCE; // lists and objects: databind's
            };
            // A name twice: databind keeps the last; leave that to it.
            expect(!params.containsKey(name));
            params.put(name, v);
        }
        return params;
    }

    private static Stats stats(JsonParser p) throws IOException {
        field(p, "stats");
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t == JsonToken.START_OBJECT);
        Stats s = new Stats(primitive(p, "minNs"), primitive(p, "medianNs"), primitive(p, "meanNs"), primitive(p, "stdevNs"), primitive(p, "cv"),
                intField(p, "samples"), intField(p, "callsPerSample"), intField(p, "outliers"));
        expect(p.nextToken() == JsonToken.END_OBJECT);
        return s;
    }

    private static SensorReading sensors(JsonParser p, String name) throws IOException {
        field(p, name);
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t == JsonToken.START_OBJECT);
        Double temperatureC = number(p, "temperatureC");
        Double clockMhz = number(p, "clockMhz");
        Double powerW = number(p, "powerW");
        String f = p.nextFieldName();
        String temperatureSource = null;
        if ("temperatureSource".equals(f)) {
            temperatureSource = textValue(p);
            f = p.nextFieldName();
        }
        String clockSource = null;
        if ("clockSource".equals(f)) {
            clockSource = textValue(p);
            f = p.nextFieldName();
        }
        Double maxClockMhz = null;
        if ("maxClockMhz".equals(f)) {
            maxClockMhz = numberValue(p, true);
            f = p.nextFieldName();
        }
        Double energyJ = null;
        if ("energyJ".equals(f)) {
            energyJ = numberValue(p, true);
            f = p.nextFieldName();
        }
        Integer throttled = null;
        if ("throttled".equals(f)) {
            JsonToken v = p.nextToken();
            if (v != JsonToken.VALUE_NULL) throttled = intOf(p, v);
            f = p.nextFieldName();
        }
        expect(f == null && p.currentToken() == JsonToken.END_OBJECT);
        return new SensorReading(temperatureC, clockMhz, powerW, temperatureSource, clockSource, maxClockMhz, energyJ, throttled);
    }

    private static Thermal thermal(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t == JsonToken.START_OBJECT);
        Double start = number(p, "startTemperatureC");
        long waited = longField(p, "cooldownWaitMs");
        field(p, "cooldownTimedOut");
        JsonToken b = p.nextToken();
        expect(b == JsonToken.VALUE_TRUE || b == JsonToken.VALUE_FALSE);
        String throttle = text(p, "throttle");
        expect(p.nextToken() == JsonToken.END_OBJECT);
        return new Thermal(start, waited, b == JsonToken.VALUE_TRUE, throttle);
    }

    private static void field(JsonParser p, String name) throws IOException {
        expect(name.equals(p.nextFieldName()));
    }

    private static String text(JsonParser p, String name) throws IOException {
        field(p, name);
        return textValue(p);
    }

    private static String textValue(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t == JsonToken.VALUE_STRING);
        return p.getText();
    }

    /** A boxed double field: a JSON number or null. */
    private static Double number(JsonParser p, String name) throws IOException {
        field(p, name);
        return numberValue(p, true);
    }

    private static Double numberValue(JsonParser p, boolean nullable) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL && nullable) return null;
        expect(t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT);
        return p.getDoubleValue();
    }

    /** A primitive double field: null is databind's to refuse. */
    private static double primitive(JsonParser p, String name) throws IOException {
        field(p, name);
        return numberValue(p, false);
    }

    private static long longField(JsonParser p, String name) throws IOException {
        field(p, name);
        JsonToken t = p.nextToken();
        expect(t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER);
        return p.getLongValue();
    }

    private static int intField(JsonParser p, String name) throws IOException {
        field(p, name);
        return intValue(p);
    }

    private static int intValue(JsonParser p) throws IOException {
        return intOf(p, p.nextToken());
    }

    private static int intOf(JsonParser p, JsonToken t) throws IOException {
        expect(t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT);
        return p.getIntValue();
    }

    private static void expect(boolean canonical) {
        if (!canonical) throw NotCanonical.INSTANCE;
    }
}

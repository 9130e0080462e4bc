package org.tunefarm.space;

import java.util.List;
import java.util.Objects;

/**
 * One tunable parameter: a name and a finite, ordered domain of values. Values are
 * {@link Integer}s or {@link String}s (an enum such as a loop order); a domain holds one kind.
 * The position of a value in the domain is its <em>choice</em>, the digit of the mixed-radix index.
 */
public record Parameter(String name, List<Object> values) {

    public Parameter {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("parameter name '" + name + "' is not an identifier");
        }
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException("parameter '" + name + "' has an empty domain");
        }
        values = List.copyOf(values);
        boolean ints = values.get(0) instanceof Integer;
        for (Object v : values) {
            if (!(v instanceof Integer) && !(v instanceof String)) {
                throw new IllegalArgumentException("parameter '" + name + "': value " + v + " is neither an integer nor a string");
            }
            if ((v instanceof Integer) != ints) {
                throw new IllegalArgumentException("parameter '" + name + "' mixes integers and strings");
            }
        }
        if (values.stream().distinct().count() != values.size()) {
            throw new IllegalArgumentException("parameter '" + name + "' repeats a value");
        }
    }

    public static Parameter ints(String name, int... values) {
        return new Parameter(name, java.util.Arrays.stream(values).boxed().map(Object.class::cast).toList());
    }

    public static Parameter strings(String name, String... values) {
        return new Parameter(name, List.of((Object[]) values));
    }

    public int size() {
        return values.size();
    }

    public boolean isInteger() {
        return values.get(0) instanceof Integer;
    }

    /** The choice (position) of a value, or -1 when the value is not in the domain. */
    public int choiceOf(Object value) {
        if (value instanceof Number n && isInteger()) {
            long l = n.longValue();
            if (l != n.doubleValue() || l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) return -1;
            return values.indexOf((int) l);
        }
        return values.indexOf(value);
    }
}

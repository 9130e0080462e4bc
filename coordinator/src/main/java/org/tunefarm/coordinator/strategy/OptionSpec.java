package org.tunefarm.coordinator.strategy;

/**
 * One strategy option, declared as data so that help text and validation come from the same
 * place. The default's type (Integer, Double, Boolean or String) is the option's type.
 */
public record OptionSpec(String name, String meaning, Object defaultValue) {

    public OptionSpec {
        if (!(defaultValue instanceof Integer || defaultValue instanceof Double || defaultValue instanceof Boolean || defaultValue instanceof String)) {
            throw new IllegalArgumentException("option '" + name + "': default must be an Integer, Double, Boolean or String");
        }
    }

    /** Converts a value given as text or as a JSON/YAML scalar to this option's type. */
    public Object parse(Object value) {
        String text = String.valueOf(value).trim();
        try {
            if (defaultValue instanceof Integer) {
                if (value instanceof Number n && n.doubleValue() == n.intValue()) return n.intValue();
                return Integer.parseInt(text);
            }
            if (defaultValue instanceof Double) {
                double d = value instanceof Number n ? n.doubleValue() : Double.parseDouble(text);
                if (!Double.isFinite(d)) throw new NumberFormatException();
                return d;
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option '" + name + "' expects " + typeName() + ", got '" + text + "'");
        }
        if (defaultValue instanceof Boolean) {
            if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) return Boolean.parseBoolean(text);
            throw new IllegalArgumentException("option '" + name + "' expects true or false, got '" + text + "'");
        }
        return text;
    }

    public String typeName() {
        return defaultValue instanceof Integer ? "an integer" : defaultValue instanceof Double ? "a number"
                : defaultValue instanceof Boolean ? "true or false" : "text";
    }

    /** One line of help, e.g. {@code  popSize=20  individuals kept in the population}. */
    public String help() {
        return name + "=" + defaultValue + "  " + meaning;
    }
}

package org.tunefarm.coordinator.strategy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Option values checked against a strategy's {@link OptionSpec}s: every name known, every value typed. */
public final class Options {

    private final Map<String, Object> values;

    private Options(Map<String, Object> values) {
        this.values = values;
    }

    /**
     * @throws IllegalArgumentException naming the strategy and the option that is unknown or ill-typed
     */
    static Options of(String strategy, List<OptionSpec> specs, Map<String, ?> given) {
        Map<String, Object> v = new LinkedHashMap<>();
        for (OptionSpec s : specs) v.put(s.name(), s.defaultValue());
        for (Map.Entry<String, ?> e : given.entrySet()) {
            OptionSpec spec = specs.stream().filter(s -> s.name().equals(e.getKey())).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("strategy '" + strategy + "' has no option '" + e.getKey() + "'; it knows "
                            + specs.stream().map(OptionSpec::name).toList()));
            try {
                v.put(spec.name(), spec.parse(e.getValue()));
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException("strategy '" + strategy + "': " + x.getMessage(), x);
            }
        }
        return new Options(v);
    }

    public int integer(String name) {
        return (Integer) get(name);
    }

    public double number(String name) {
        return (Double) get(name);
    }

    public boolean flag(String name) {
        return (Boolean) get(name);
    }

    public String text(String name) {
        return (String) get(name);
    }

    private Object get(String name) {
        Object o = values.get(name);
        if (o == null) throw new IllegalArgumentException("no option '" + name + "'");
        return o;
    }

    @Override public String toString() {
        return values.toString();
    }
}

package org.tunefarm.kernel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.tunefarm.space.Constraint;
import org.tunefarm.space.Formula;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * A kernel family declared by an agent's config rather than built into the farm. The space is
 * the same for every shape and core count: the board's owner wrote it for the board.
 * Constructing one checks the whole declaration, naming the field at fault.
 */
public final class CommandKernelSpec implements KernelSpec {
    /** Names that argv templates supply themselves, so a declaration cannot reuse them. */
    public static final Set<String> RESERVED = Set.of("seed", "samples");

    private final CommandKernelDeclaration declaration;
    private final SearchSpace space;
    private final Formula flops;
    private final Map<String, Object> defaultConfig;

    /** @throws IllegalArgumentException naming the field of the declaration at fault */
    public CommandKernelSpec(CommandKernelDeclaration d) {
        if (d.name() == null || !d.name().matches("[A-Za-z_][A-Za-z0-9_.-]{0,63}")) {
            throw new IllegalArgumentException("name: '" + d.name() + "' must be 1-64 characters of [A-Za-z0-9_.-], starting with a letter or _");
        }
        this.declaration = d;
        if (d.dimensions().isEmpty()) throw new IllegalArgumentException("dimensions: at least one shape dimension is required");
        Set<String> names = new HashSet<>();
        for (String dim : d.dimensions()) {
            if (dim == null || !dim.matches("[A-Za-z_][A-Za-z0-9_]*")) throw new IllegalArgumentException("dimensions: '" + dim + "' is not an identifier");
            if (!names.add(dim)) throw new IllegalArgumentException("dimensions: '" + dim + "' is listed twice");
            if (RESERVED.contains(dim)) throw new IllegalArgumentException("dimensions: '" + dim + "' is reserved (" + RESERVED + ")");
        }
        if (d.parameters().isEmpty()) throw new IllegalArgumentException("parameters: at least one parameter is required");
        List<Parameter> ps = new ArrayList<>();
        for (var e : d.parameters().entrySet()) {
            String f = "parameters." + e.getKey();
            if (!names.add(e.getKey())) throw new IllegalArgumentException(f + ": the name is also a dimension");
            if (RESERVED.contains(e.getKey())) throw new IllegalArgumentException(f + ": the name is reserved (" + RESERVED + ")");
            try {
                ps.add(new Parameter(e.getKey(), e.getValue()));
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(f + ": " + x.getMessage());
            }
        }
        try {
            space = SearchSpace.of(ps, d.constraints());
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException("constraints: " + x.getMessage());
        }
        Map<String, Object> config = new LinkedHashMap<>();
        for (Parameter p : ps) {
            Object v = d.defaultConfig().get(p.name());
            if (v == null) throw new IllegalArgumentException("default." + p.name() + ": is missing");
            config.put(p.name(), v);
        }
        problem(d.defaultConfig()).ifPresent(why -> {
            throw new IllegalArgumentException("default: " + why);
        });
        defaultConfig = java.util.Collections.unmodifiableMap(config);
        try {
            flops = Formula.parse(d.flops(), d.dimensions());
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException("flops: " + x.getMessage());
        }
    }

    public CommandKernelDeclaration declaration() { return declaration; }

    @Override public String op() { return declaration.name(); }

    @Override public List<String> dimensions() { return declaration.dimensions(); }

    @Override public List<String> dtypes() { return declaration.dtypes(); }

    @Override public SearchSpace space(KernelKey key, int cores) {
        validate(key);
        return space;
    }

    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        return defaultConfig;
    }

    /** The formula's value; 0 (no GFLOP/s) when it overflows or divides by zero for this shape. */
    @Override public double flops(KernelKey key) {
        try {
            return flops.evaluate(key.shape());
        } catch (ArithmeticException | IllegalArgumentException undefined) {
            return 0;
        }
    }

    /**
     * Why a configuration is not a valid point of the space (a missing or unknown name, a value
     * outside its domain, a broken constraint), or empty when it is one.
     */
    public Optional<String> problem(Map<String, ?> params) {
        long index;
        try {
            index = space.index(params);
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        Constraint broken = space.violated(index);
        return broken == null ? Optional.empty() : Optional.of("breaks the constraint '" + broken.text() + "'");
    }
}

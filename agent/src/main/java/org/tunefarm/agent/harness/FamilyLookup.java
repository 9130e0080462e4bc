package org.tunefarm.agent.harness;

import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tunefarm.agent.kernels.KernelFamily;

/**
 * Finds the kernel family that implements an operation. The worker process builds its lookup from
 * the system property {@value #PROPERTY} (a comma-separated list of {@link KernelFamily} class
 * names with public no-argument constructors), so tests can add their own families on the
 * worker's command line; the built-in registry is chained behind it.
 */
@FunctionalInterface
public interface FamilyLookup {

    String PROPERTY = "tunefarm.families";

    /** @throws IllegalArgumentException naming the operation when no family implements it */
    KernelFamily family(String op);

    /** Tries this lookup, then {@code next}. */
    default FamilyLookup or(FamilyLookup next) {
        return op -> {
            try {
                return family(op);
            } catch (IllegalArgumentException notHere) {
                return next.family(op);
            }
        };
    }

    /** The given families, by their spec's operation. */
    static FamilyLookup of(KernelFamily... families) {
        Map<String, KernelFamily> byOp = new LinkedHashMap<>();
        for (KernelFamily f : families) byOp.put(f.spec().op(), f);
        return op -> {
            KernelFamily f = byOp.get(op);
            if (f == null) throw new IllegalArgumentException("no kernel family for operation '" + op + "' (known: " + byOp.keySet() + ")");
            return f;
        };
    }

    /** Families named by class in a comma-separated list; blank means none. */
    static FamilyLookup ofClassNames(String classNames) {
        String list = classNames == null ? "" : classNames.strip();
        if (list.isEmpty()) return of();
        return of(Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(FamilyLookup::instantiate).toArray(KernelFamily[]::new));
    }

    private static KernelFamily instantiate(String className) {
        try {
            Class<?> c = Class.forName(className);
            if (!KernelFamily.class.isAssignableFrom(c)) throw new IllegalArgumentException(PROPERTY + ": " + className + " is not a KernelFamily");
            return (KernelFamily) c.getConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(PROPERTY + ": class " + className + " not found", e);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new IllegalArgumentException(PROPERTY + ": " + className + " needs a public no-argument constructor", e);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(PROPERTY + ": " + className + " failed to construct: " + e.getCause(), e);
        }
    }
}

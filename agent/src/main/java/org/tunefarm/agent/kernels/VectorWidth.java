package org.tunefarm.agent.kernels;

import java.lang.module.ModuleFinder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The one place the width of the kernels' vectors is chosen: the Vector API's preferred float
 * species, or a narrower one forced with {@code -Dtunefarm.vectorBits=128}, so the 128-bit
 * kernels that NEON boards run are exercised (and tuned as their own device class) on x86.
 *
 * <p>Where the JVM has no {@code jdk.incubator.vector} in its boot layer (started without
 * {@code --add-modules jdk.incubator.vector}, or a JRE jlinked without it) the width is 0 and
 * only scalar kernels run. This class links the incubator classes only through {@link Species},
 * so it loads, and answers {@link #bits()}, on such a JVM too.
 */
public final class VectorWidth {

    /** The system property that forces a width, in bits. */
    public static final String PROPERTY = "tunefarm.vectorBits";
    /** The incubator module of the Vector API. */
    public static final String MODULE = "jdk.incubator.vector";

    /** Why a vector kernel cannot run here. */
    public static final String UNAVAILABLE = "the vector kernels need the JVM started with --add-modules " + MODULE;

    private static final boolean AVAILABLE = ModuleLayer.boot().findModule(MODULE).isPresent();

    private VectorWidth() {}

    /** Whether this JVM runs the vector kernels: the Vector API module is in its boot layer. */
    public static boolean available() {
        return AVAILABLE;
    }

    /** Whether this JVM's image holds the module at all, added or not. */
    public static boolean inImage() {
        return ModuleFinder.ofSystem().find(MODULE).isPresent();
    }

    /**
     * Bits of one vector of the kernels; 0 where the Vector API is unavailable.
     *
     * @throws IllegalArgumentException when {@value #PROPERTY} is set to a width this JVM cannot use
     */
    public static int bits() {
        String forced = System.getProperty(PROPERTY);
        if (!AVAILABLE) {
            if (forced != null && !forced.isBlank()) {
                throw new IllegalArgumentException(PROPERTY + "=" + forced + ": this JVM has no Vector API ("
                        + MODULE + "), so only scalar kernels run and there is no width to force");
            }
            return 0;
        }
        return choose(forced, Preferred.bits());
    }

    /**
     * The float species of every vector kernel.
     *
     * @throws IllegalStateException where the Vector API is unavailable (the scalar families never ask)
     */
    public static VectorSpecies<Float> floats() {
        if (!AVAILABLE) throw new IllegalStateException(UNAVAILABLE);
        return Species.FLOAT;
    }

    /**
     * The width to use: the preferred one unless a width is forced, which must be a vector width
     * the CPU runs natively (wider species exist in the API but run as per-lane Java code).
     */
    static int choose(String forced, int preferredBits) {
        if (forced == null || forced.isBlank()) return preferredBits;
        int bits;
        try {
            bits = Integer.parseInt(forced.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + ": '" + forced + "' is not a number of bits (128, 256 or 512)");
        }
        if (bits != 128 && bits != 256 && bits != 512) {
            throw new IllegalArgumentException(PROPERTY + ": " + bits + " is not a vector width (128, 256 or 512 bits)");
        }
        if (bits > preferredBits) {
            throw new IllegalArgumentException(PROPERTY + ": " + bits + " bits is wider than this CPU's vectors ("
                    + preferredBits + " bits)");
        }
        return bits;
    }

    /** The species, initialised on the first vector kernel only (and only where {@link #AVAILABLE}). */
    private static final class Species {
        /**
         * A static final constant, so C2 folds the lane count into every kernel loop. Unforced, the
         * preferred species itself: on SVE it may be S_Max_BIT, whose width no fixed shape has.
         */
        static final VectorSpecies<Float> FLOAT = bits() == Preferred.bits() ? FloatVector.SPECIES_PREFERRED
                : VectorSpecies.of(float.class, VectorShape.forBitSize(bits()));
    }

    /** Touches the incubator classes, so it is loaded only where {@link #AVAILABLE}; holds no state. */
    private static final class Preferred {
        static int bits() {
            return FloatVector.SPECIES_PREFERRED.vectorBitSize();
        }
    }
}

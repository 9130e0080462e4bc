package org.tunefarm.lookup;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Picks the table's device class for a device, by the rules of {@link DeviceRule} in order: the
 * class itself, else a class with the same CPU model and vector width, else one with the same
 * ISA. Among several classes a rule admits: the same JVM feature release first, then the nearest
 * physical core count, then the smaller class name. Unknown device fields never match.
 */
final class DeviceMatcher {

    /** A class the device matched, and the rule that matched it. */
    record Match(String deviceClass, DeviceRule rule) {}

    private DeviceMatcher() {}

    /**
     * @param classes  the classes that could answer (those with entries for the kernel asked)
     * @param profiles the readable profiles of the table's classes; a class without one matches only by {@code CLASS}
     * @return the match, or null when no rule admits any class
     */
    static Match match(Device device, Collection<String> classes, Map<String, ClassProfile> profiles) {
        if (device.deviceClass() != null && classes.contains(device.deviceClass())) return new Match(device.deviceClass(), DeviceRule.CLASS);
        if (device.cpuModel() != null && device.vectorBits() != Device.UNKNOWN) {
            String model = device.cpuModel().strip();
            String found = best(device, classes, profiles, p -> p.cpuModel() != null && p.cpuModel().strip().equalsIgnoreCase(model) && p.vectorBits() == device.vectorBits());
            if (found != null) return new Match(found, DeviceRule.CPU_MODEL);
        }
        if (device.isa() != null) {
            String found = best(device, classes, profiles, p -> device.isa().equals(p.isa()));
            if (found != null) return new Match(found, DeviceRule.ISA);
        }
        return null;
    }

    private static String best(Device device, Collection<String> classes, Map<String, ClassProfile> profiles, Predicate<ClassProfile> admits) {
        Comparator<ClassProfile> order = Comparator
                .comparingInt((ClassProfile p) -> device.jvmMajor() > 0 && p.jvmMajor() == device.jvmMajor() ? 0 : 1)
                .thenComparingInt(p -> device.physicalCores() > 0 ? Math.abs(p.physicalCores() - device.physicalCores()) : 0)
                .thenComparing(ClassProfile::deviceClass);
        ClassProfile best = null;
        for (String c : classes) {
            ClassProfile p = profiles.get(c);
            if (p != null && admits.test(p) && (best == null || order.compare(p, best) < 0)) best = p;
        }
        return best == null ? null : best.deviceClass();
    }
}

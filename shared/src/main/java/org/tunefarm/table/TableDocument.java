package org.tunefarm.table;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.protocol.Protocol;

/**
 * The best-kernel table as it is shipped (schema {@value BestKernelTable#SCHEMA}): entries, plus
 * what a consumer needs to trust and match them. Field order here is the order in the JSON.
 *
 * @param schema      always {@link BestKernelTable#SCHEMA}
 * @param farmId      the farm that measured the entries: a UUID its coordinator cluster keeps
 * @param generatedAt epoch ms when this document was made
 * @param sweeps      the sorted, distinct sweep ids of the entries
 * @param classes     device class → its readable profile (the {@link DeviceProfile} fields plus
 *                    {@code isa}), for the classes of the entries whose profile the farm knows,
 *                    so a device that cannot compute the class hash still matches by profile
 * @param entries     the best known kernels, in slot order
 */
public record TableDocument(String schema, String farmId, long generatedAt, List<String> sweeps,
                            Map<String, Map<String, Object>> classes, List<TableEntry> entries) {

    /**
     * The document for these entries.
     *
     * @param profiles every class profile the farm knows; only those of the entries are listed
     */
    public static TableDocument of(String farmId, long generatedAt, List<TableEntry> entries, Map<String, DeviceProfile> profiles) {
        TreeSet<String> sweeps = new TreeSet<>();
        Map<String, Map<String, Object>> classes = new TreeMap<>();
        for (TableEntry e : entries) {
            if (e.sweepId() != null) sweeps.add(e.sweepId());
            DeviceProfile p = profiles.get(e.deviceClass());
            if (p != null) classes.computeIfAbsent(e.deviceClass(), c -> readable(p));
        }
        return new TableDocument(BestKernelTable.SCHEMA, farmId, generatedAt, List.copyOf(sweeps), classes, List.copyOf(entries));
    }

    /** A class's profile as the document shows it: the profile's fields, then {@code isa}. */
    static Map<String, Object> readable(DeviceProfile p) {
        Map<String, Object> m = Protocol.JSON.convertValue(p, new TypeReference<LinkedHashMap<String, Object>>() {});
        m.put("isa", p.isa());
        return m;
    }
}

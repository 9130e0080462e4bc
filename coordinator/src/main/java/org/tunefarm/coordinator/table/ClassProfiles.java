package org.tunefarm.coordinator.table;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.protocol.Protocol;

/**
 * The profile of every device class the farm has met, in a cluster map REST reads to describe the
 * table's classes. The leader writes it: when an agent registers, and at start from the sweep
 * log's class starts (the durable copy, which every coordinator replicates), so the map holds
 * each class with records even when no agent of it is online. A class's profile never changes
 * (the class name is a hash of the profile), so a write only adds.
 */
public final class ClassProfiles {
    private static final Logger LOG = Logger.getLogger(ClassProfiles.class.getName());
    /** The cluster map: device class → profile as JSON. */
    public static final String MAP = "tunefarm.classes";

    private final Vertx vertx;

    public ClassProfiles(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Adds a class's profile unless the map has it. */
    public Future<Void> add(DeviceProfile profile) {
        return map().compose(m -> m.putIfAbsent(profile.deviceClass(), Protocol.write(profile))).mapEmpty();
    }

    /** Every class profile the farm knows; an unreadable entry is left out (and logged). */
    public Future<Map<String, DeviceProfile>> all() {
        return map().compose(AsyncMap::entries).map(es -> {
            Map<String, DeviceProfile> out = new TreeMap<>();
            es.forEach((deviceClass, json) -> {
                try {
                    out.put(deviceClass, Protocol.JSON.readValue(json, DeviceProfile.class));
                } catch (java.io.IOException | IllegalArgumentException e) {
                    LOG.warning(() -> "unreadable profile of class " + deviceClass + " in the cluster map: " + e.getMessage());
                }
            });
            return out;
        });
    }

    private Future<AsyncMap<String, String>> map() {
        return vertx.sharedData().getAsyncMap(MAP);
    }
}

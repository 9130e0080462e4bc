package org.tunefarm.coordinator.replica;

import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.protocol.Protocol;

/** A peer's sweeps and operators' changes, as a read that asks for the sweeps brings them ({@link ReplicaVerticle}). */
record SweepCopy(List<SweepLog.Entry> entries, List<SweepControl> controls) {

    static SweepCopy of(JsonArray sweeps, JsonArray controls) throws IOException {
        List<SweepLog.Entry> entries = new ArrayList<>();
        for (int i = 0; i < sweeps.size(); i++) entries.add(Protocol.JSON.readValue(sweeps.getJsonObject(i).encode(), SweepLog.Entry.class));
        List<SweepControl> changes = new ArrayList<>();
        for (int i = 0; i < controls.size(); i++) changes.add(Protocol.JSON.readValue(controls.getJsonObject(i).encode(), SweepControl.class));
        return new SweepCopy(entries, changes);
    }

    /** Keeps in {@code log} those it lacks. */
    void appendTo(SweepLog log) throws IOException {
        log.appendAllIfAbsent(entries, controls);
    }
}

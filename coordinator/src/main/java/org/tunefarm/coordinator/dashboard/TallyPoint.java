package org.tunefarm.coordinator.dashboard;

import io.vertx.core.json.JsonObject;
import org.tunefarm.measure.Measurement;

/**
 * What the plots need of a record, kept compact: the tally holds up to 300,000 of them, and as the
 * JSON objects the page is sent (a map of ten boxed fields each) they took about 1 KB apiece. The
 * names are the tally's shared copies and the parameters their JSON text, shared too while the
 * tally still knows that parameter set; {@link #json} is the object the page reads.
 *
 * @param medianNs NaN when the record has no statistics
 */
record TallyPoint(long t, String sweep, String deviceClass, String kernel, long index, int round, String params, String status,
                  double medianNs, String agent) {

    /**
     * The point of a record whose names (sweep id, device class, kernel id, agent) the caller gives
     * as its shared copies, so a million points do not each hold their own.
     *
     * @param params the record's parameters as JSON text (shared by the points of the same parameters)
     */
    static TallyPoint of(Measurement m, String sweep, String deviceClass, String kernel, String agent, String params) {
        return new TallyPoint(m.finishedAt(), sweep, deviceClass, kernel, m.index(), m.round(), params, m.status().name(),
                m.stats() != null ? m.stats().medianNs() : Double.NaN, agent);
    }

    JsonObject json() {
        return new JsonObject().put("t", t).put("sweep", sweep).put("deviceClass", deviceClass).put("kernel", kernel).put("index", index)
                .put("round", round).put("params", new JsonObject(params)).put("status", status)
                .put("medianNs", Double.isNaN(medianNs) ? null : medianNs).put("agent", agent);
    }
}

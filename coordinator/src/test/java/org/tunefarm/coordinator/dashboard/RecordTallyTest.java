package org.tunefarm.coordinator.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/** The dashboard's reading of the records: points per search, failures by status, rates, sensors absent as absent. */
class RecordTallyTest {
    static final KernelKey KEY = new KernelKey("sleep", Map.of("unitUs", 100), "fp32");

    static Measurement m(String sweep, long index, Status status, long finishedAt, SensorReading after) {
        Stats stats = status == Status.OK ? Stats.of(new double[] {1e6 + index, 1e6 + index}, 1) : null;
        return new Measurement(sweep, KEY, index, Map.of("a", (int) index), status, stats, null, SensorReading.NONE, after, "",
                "board", "cls", finishedAt - 10, finishedAt, 0);
    }

    @Test void pointsFailuresAndLastCandidatePerAgent() {
        RecordTally t = new RecordTally();
        t.add(List.of(m("s1", 1, Status.OK, 1000, SensorReading.NONE), m("s1", 2, Status.TIMEOUT, 2000, SensorReading.NONE),
                m("s1", 3, Status.CRASH, 3000, SensorReading.NONE), m("s1", 4, Status.TIMEOUT, 2500, SensorReading.NONE)), 0);
        assertEquals(4, t.points("s1", "cls", KEY.id()).size());
        assertEquals(0, t.points("s1", "other", KEY.id()).size());
        assertEquals(Map.of("TIMEOUT", 2, "CRASH", 1), t.failures("s1"));
        JsonObject last = t.lastRecord("board");
        assertEquals(3, last.getLong("index"), "the latest by finish time, not by arrival");
        assertNull(t.points("s1", "cls", KEY.id()).getJsonObject(1).getValue("medianNs"), "a failure has no time");
        assertEquals(4, t.total());
        assertTrue(t.takeFresh().isEmpty(), "records read back at start are not news");
    }

    @Test void rateCountsArrivalsInTheWindow() {
        RecordTally t = new RecordTally();
        long now = 1_000_000;
        for (int i = 0; i < 30; i++) t.add(List.of(m("s1", i, Status.OK, now, SensorReading.NONE)), now - 29_000 + i * 1000L);
        assertEquals(1.0, t.rate("s1", now), 0.05, "30 records over 30 s");
        assertEquals(0.0, t.rate("s1", now + RecordTally.RATE_WINDOW_MS + 1), "nothing in the last minute");
        assertEquals(30, t.takeFresh().size());
        assertEquals(0, t.takeFresh().size());
    }

    @Test void aCopyOfALongHistoryBeforeTheFeedRunsKeepsOnlyTheLatestNewsAndTheRateWindow() {
        RecordTally t = new RecordTally();
        long start = 1_000_000;
        int copied = RecordTally.FRESH_KEPT + 5_000;
        for (int i = 0; i < copied; i++) t.add(List.of(m("s1", i, Status.OK, start + i * 10L, SensorReading.NONE)), start + i * 10L);
        List<JsonObject> news = t.takeFresh();
        assertEquals(RecordTally.FRESH_KEPT, news.size());
        assertEquals(copied - 1, news.getLast().getLong("index"), "the latest are kept");
        assertEquals(JsonObject.of("a", copied - 1), news.getLast().getJsonObject("params"));
        long end = start + (copied - 1) * 10L;
        // A rate over the last minute: 6,000 arrivals, 10 ms apart.
        assertEquals(100.0, t.rate("s1", end), 1.0);
        assertEquals(copied, t.total());
    }

    @Test void aLongHistoryKeepsTheLatestPointsAndDropsTheStalestSearches() {
        RecordTally t = new RecordTally(3, 5);
        for (int i = 0; i < 5; i++) t.add(List.of(m("old", i, Status.OK, 1000 + i, SensorReading.NONE)), 0);
        assertEquals(List.of(2L, 3L, 4L), t.points("old", "cls", KEY.id()).stream().map(p -> ((JsonObject) p).getLong("index")).toList(),
                "a search keeps its latest points");
        t.points("old", "cls", KEY.id()); // reading it does not keep it
        for (int i = 0; i < 3; i++) t.add(List.of(m("new", i, Status.OK, 2000 + i, SensorReading.NONE)), 0);
        assertEquals(0, t.points("old", "cls", KEY.id()).size(), "past the total, the search recorded least recently goes");
        assertEquals(3, t.points("new", "cls", KEY.id()).size());
        assertEquals(8, t.total(), "totals still count every record");
    }

    @Test void noSensorKeepsNoReadingsAndAPartialSensorKeepsItsNulls() {
        RecordTally t = new RecordTally();
        t.add(List.of(m("s1", 1, Status.OK, 1000, SensorReading.NONE)), 0);
        assertTrue(t.readings().isEmpty(), "a board without sensors has nothing to plot, not zeros");
        t.add(List.of(m("s1", 2, Status.OK, 2000, new SensorReading(null, 2400.0, null))), 0);
        JsonObject r = t.readings().getJsonArray("board").getJsonObject(0);
        assertNull(r.getValue("tempC"));
        assertEquals(2400.0, r.getDouble("clockMhz"));
    }
}

package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * Records with the JSON line each is written as, in order: what arrived as text (a replica's copy,
 * a page of a peer's log) is appended with its own text ({@link RecordStore#appendAsync(List, List)}),
 * not written out again.
 *
 * @param records the records
 * @param lines   each record's JSON text, without a line break
 */
public record RecordLines(List<Measurement> records, List<String> lines) {
    private static final Logger LOG = Logger.getLogger(RecordLines.class.getName());

    /** The records of log lines with their lines, skipping (with a warning) any line that cannot be read. */
    public static RecordLines parse(List<String> lines) {
        List<Measurement> records = new ArrayList<>(lines.size());
        List<String> kept = new ArrayList<>(lines.size());
        for (String line : lines) {
            try {
                records.add(Protocol.JSON.readValue(line, Measurement.class));
                kept.add(line);
            } catch (IOException e) {
                LOG.warning(() -> "not copying an unreadable record: " + e.getMessage());
            }
        }
        return new RecordLines(records, kept);
    }
}

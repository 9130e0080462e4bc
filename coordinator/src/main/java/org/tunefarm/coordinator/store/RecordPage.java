package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * A run of records read from a log by byte offset, so a peer copying the log asks only for what
 * follows the last page it took, never for the whole log again. The records travel as the log's
 * own lines: the log that serves a page does not parse them, and the one that copies it parses
 * each once.
 *
 * @param lines the records' lines, in append order, without their newlines
 * @param next  the offset to ask from for the page after this one
 * @param end   the log's durable length when the page was read: {@code next == end} means caught up
 */
public record RecordPage(List<String> lines, long next, long end) {
    private static final Logger LOG = Logger.getLogger(RecordPage.class.getName());

    /** The records of the lines; a line damaged since its log was opened is skipped (that log's next start quarantines it). */
    public List<Measurement> records() {
        return parse(lines);
    }

    /** Records of log lines, skipping (with a warning) any that cannot be read. */
    public static List<Measurement> parse(List<String> lines) {
        List<Measurement> out = new ArrayList<>(lines.size());
        for (String line : lines) {
            try {
                out.add(Protocol.JSON.readValue(line, Measurement.class));
            } catch (IOException e) {
                LOG.warning(() -> "not copying an unreadable record: " + e.getMessage());
            }
        }
        return out;
    }
}

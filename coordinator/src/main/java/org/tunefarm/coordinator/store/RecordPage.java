package org.tunefarm.coordinator.store;

import java.util.List;
import org.tunefarm.measure.Measurement;

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

    /** The records of the lines; a line damaged since its log was opened is skipped (that log's next start quarantines it). */
    public List<Measurement> records() {
        return RecordLines.parse(lines).records();
    }
}

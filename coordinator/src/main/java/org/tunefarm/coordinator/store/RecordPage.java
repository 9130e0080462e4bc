package org.tunefarm.coordinator.store;

import java.util.List;
import org.tunefarm.measure.Measurement;

/**
 * A run of records read from a log by byte offset, so a peer copying the log asks only for what
 * follows the last page it took, never for the whole log again.
 *
 * @param records the records, in append order
 * @param next    the offset to ask from for the page after this one
 * @param end     the log's durable length when the page was read: {@code next == end} means caught up
 */
public record RecordPage(List<Measurement> records, long next, long end) {}

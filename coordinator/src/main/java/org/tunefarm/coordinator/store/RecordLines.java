package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.tunefarm.measure.Measurement;

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

    /**
     * The lines of a run of a log's text, each ended by a newline (a page a peer sent as bytes); a
     * line of ASCII, as nearly every line is, becomes text without a decoder. Empty lines are skipped.
     */
    public static List<String> split(byte[] text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        boolean ascii = true;
        for (int i = 0; i < text.length; i++) {
            byte b = text[i];
            if (b < 0) ascii = false;
            if (b != '\n') continue;
            if (i > start) out.add(new String(text, start, i - start, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8));
            start = i + 1;
            ascii = true;
        }
        if (start < text.length) throw new IllegalArgumentException("a page's last line has no newline (" + (text.length - start) + " bytes)");
        return out;
    }

    /** The records of log lines with their lines, skipping (with a warning) any line that cannot be read. */
    public static RecordLines parse(List<String> lines) {
        List<Measurement> records = new ArrayList<>(lines.size());
        List<String> kept = new ArrayList<>(lines.size());
        for (String line : lines) {
            try {
                records.add(MeasurementReader.read(line));
                kept.add(line);
            } catch (IOException e) {
                LOG.warning(() -> "not copying an unreadable record: " + e.getMessage());
            }
        }
        return new RecordLines(records, kept);
    }
}

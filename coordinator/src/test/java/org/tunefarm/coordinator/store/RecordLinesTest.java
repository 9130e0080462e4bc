package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A page of a log sent as bytes is split back into the very lines the log holds. */
class RecordLinesTest {
    @Test void aPageOfBytesSplitsIntoItsLinesAsciiOrNot() {
        List<String> lines = List.of("{\"detail\":\"plain\"}", "{\"detail\":\"Grüße, 温度 42 °C\"}", "{}");
        byte[] text = (String.join("\n", lines) + "\n\n").getBytes(StandardCharsets.UTF_8); // an empty line is skipped
        assertEquals(lines, RecordLines.split(text));
        assertEquals(List.of(), RecordLines.split(new byte[0]));
    }

    @Test void aPageWhoseLastLineHasNoNewlineIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RecordLines.split("{}\n{\"a\":".getBytes(StandardCharsets.UTF_8)));
        assertEquals("a page's last line has no newline (5 bytes)", e.getMessage());
    }
}

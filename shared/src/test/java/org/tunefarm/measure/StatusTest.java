package org.tunefarm.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.table.TableEntry;

class StatusTest {
    record Holder(Status status) {}

    @Test void knownStatusesReadAsTheirSingletons() throws Exception {
        for (Status s : Status.values()) {
            assertSame(s, Protocol.JSON.readValue(Protocol.write(new Holder(s)), Holder.class).status());
            assertTrue(s.known());
        }
        assertEquals("{\"status\":\"WRONG_ANSWER\"}", Protocol.write(new Holder(Status.WRONG_ANSWER)));
    }

    @Test void aStatusOfANewerVersionIsReadAsUnknownAndWrittenBackAsItWas() throws Exception {
        Status s = Protocol.JSON.readValue("{\"status\":\"POWER_CAPPED\"}", Holder.class).status();
        assertFalse(s.known());
        assertEquals("POWER_CAPPED", s.name());
        assertEquals("{\"status\":\"POWER_CAPPED\"}", Protocol.write(new Holder(s)));
        assertEquals(Status.of("POWER_CAPPED"), s);
    }

    @Test void numbersAndNonNamesAreNotStatuses() {
        assertThrows(JsonMappingException.class, () -> Protocol.JSON.readValue("{\"status\":3}", Holder.class));
        assertThrows(JsonMappingException.class, () -> Protocol.JSON.readValue("{\"status\":\"\"}", Holder.class));
        assertThrows(JsonMappingException.class, () -> Protocol.JSON.readValue("{\"status\":\"rm -rf /\"}", Holder.class));
        assertThrows(JsonMappingException.class, () -> Protocol.JSON.readValue("{\"status\":\"" + "A".repeat(65) + "\"}", Holder.class));
    }

    @Test void anUnknownStatusNeverWins() {
        Measurement m = new Measurement("sw", new KernelKey("sleep", Map.of("unitUs", 1), "fp32"), 3, Map.of("a", 1), Status.of("POWER_CAPPED"),
                Stats.of(new double[] {10, 11, 12}, 1), 0.0, SensorReading.NONE, SensorReading.NONE, "", "agent", "cls", 1, 2, 0);
        assertNull(TableEntry.of(m, 0), "only OK measurements enter the table");
    }
}

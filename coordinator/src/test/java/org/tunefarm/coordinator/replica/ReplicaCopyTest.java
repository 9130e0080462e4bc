package org.tunefarm.coordinator.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.coordinator.store.RecordLines;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * A copy carries each record's JSON text, which the replica parses once and keeps as its log line;
 * a copy from a coordinator that still sends JSON objects is read as well, and text that would
 * break the log's lines is written anew.
 */
class ReplicaCopyTest {
    static final Measurement ONE = ReconcileTest.m(1, "agent-a", 10_000);
    static final Measurement TWO = ReconcileTest.m(2, "agent-a", 10_000);

    @Test void linesAreParsedOnceAndKeptAsTheLogLines() {
        String one = Protocol.write(ONE), two = Protocol.write(TWO);
        RecordLines c = ReplicaVerticle.decode(new JsonObject().put(ReplicaVerticle.LINES, new JsonArray(List.of(one, two))));
        assertEquals(List.of(ONE, TWO), c.records());
        assertEquals(List.of(one, two), c.lines());
    }

    @Test void anOlderCoordinatorsObjectsAndATextWithALineBreakAreWrittenAnew() {
        RecordLines old = ReplicaVerticle.decode(new JsonObject().put(ReplicaVerticle.OBJECTS, new JsonArray().add(new JsonObject(Protocol.write(ONE)))));
        assertEquals(List.of(ONE), old.records());
        assertEquals(List.of(Protocol.write(ONE)), old.lines());

        String pretty = new JsonObject(Protocol.write(TWO)).encodePrettily();
        RecordLines broken = ReplicaVerticle.decode(new JsonObject().put(ReplicaVerticle.LINES, new JsonArray().add(pretty)));
        assertEquals(List.of(TWO), broken.records());
        assertFalse(broken.lines().get(0).contains("\n"), broken.lines().get(0));
    }

    @Test void anUnreadableRecordNamesItsPlace() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReplicaVerticle.decode(new JsonObject().put(ReplicaVerticle.LINES, new JsonArray().add(Protocol.write(ONE)).add("{\"index\": "))));
        assertTrue(e.getMessage().startsWith("record 1 is unreadable"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReplicaVerticle.decode(new JsonObject()));
    }
}

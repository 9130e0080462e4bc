package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.ProtocolException;
import org.tunefarm.protocol.Report;

/** The log reads a newer version's status; an agent reporting one is refused, naming the field. */
class UnknownStatusRefusedTest {

    @Test void anAgentMayNotReportAStatusThisVersionDoesNotKnow() {
        String body = "{\"v\":1,\"agentId\":\"a\",\"leaseId\":\"l\",\"done\":true,\"measurements\":[" + Protocol.write(measurement())
                .replace("\"status\":\"OK\"", "\"status\":\"POWER_CAPPED\"") + "]}";
        Report r = Protocol.read(body, Report.class);
        ProtocolException e = assertThrows(ProtocolException.class, () -> MeasurementCheck.check(r.measurements().get(0), "measurements[0]"));
        assertTrue(e.getMessage().startsWith("measurements[0].status: unknown status POWER_CAPPED"), e.getMessage());
        MeasurementCheck.check(measurement(), "measurements[0]"); // the same record with a known status passes
    }

    static Measurement measurement() {
        return new Measurement("sw", new KernelKey("sleep", Map.of("unitUs", 1), "fp32"), 3, Map.of("a", 1), Status.OK,
                Stats.of(new double[] {10, 11, 12}, 1), 0.0, SensorReading.NONE, SensorReading.NONE, "", "a", "cls", 1, 2, 0);
    }
}

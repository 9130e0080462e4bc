package org.tunefarm.coordinator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.protocol.Lease;

/** A GEMM sweep's searches offer each class only the micro-tiles its register file holds. */
class RegisterFileSweepTest {

    static SweepRun sweep(String space) {
        return new SweepRun("sw1", SweepSpecReader.read("""
                kernel: gemm
                shapes: [{M: 64, N: 64, K: 64}]
                space: %s
                strategy: {name: exhaustive}
                measure: {finalists: 0}
                """.formatted(space)), 1_700_000_000_000L);
    }

    @Test void anAvx2ClassIsNeverLentATileItsRegistersCannotHold() {
        SweepRun run = sweep("{kernel: [vector], microRows: [4, 8], microVecs: [2], threads: [1]}");
        List<Search> avx2 = run.searches("zen3-2c-avx256-jdk25-0000", 2, 256, DeviceProfile.registers("amd64", 256), 0);
        List<Lease.Candidate> lent = avx2.get(0).take(10_000, 0);
        assertTrue(lent.stream().anyMatch(c -> Integer.valueOf(4).equals(c.params().get("microRows"))), lent.toString());
        assertTrue(lent.stream().noneMatch(c -> Integer.valueOf(8).equals(c.params().get("microRows"))), "8x2 needs 16 accumulators: " + lent);

        List<Search> avx512 = run.searches("zen4-2c-avx512-jdk25-0000", 2, 512, DeviceProfile.registers("amd64", 512), 0);
        assertTrue(avx512.get(0).take(10_000, 0).stream().anyMatch(c -> Integer.valueOf(8).equals(c.params().get("microRows"))), "32 registers hold 8x2");
    }

    @Test void aSweepNarrowedToTilesNoRegisterFileOfTheClassHoldsLendsItOnlyTheBaseline() {
        SweepRun run = sweep("{kernel: [vector], microRows: [8], microVecs: [2], threads: [1]}");
        List<Lease.Candidate> lent = run.searches("zen3-2c-avx256-jdk25-0000", 2, 256, 16, 0).get(0).take(10_000, 0);
        assertEquals(List.of(Lease.Candidate.BASELINE), lent.stream().map(Lease.Candidate::index).toList(), lent.toString());
    }
}

package org.tunefarm.coordinator.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ArmCreditTest {
    private static final boolean[] NONE_DRY = new boolean[3];

    /** Every arm once, then arm 0 wins five times; no exploration bonus, so the choice is the credit alone. */
    private static ArmCredit armZeroWon(int stall) {
        ArmCredit c = new ArmCredit(3, 500, 0, stall);
        for (int a = 0; a < 3; a++) c.record(c.choose(NONE_DRY), false);
        for (int k = 0; k < 5; k++) c.record(0, true);
        return c;
    }

    @Test
    void theArmThatWinsIsAskedAndADryOneIsSkipped() {
        ArmCredit c = armZeroWon(0);
        assertEquals(0, c.choose(NONE_DRY));
        assertEquals(-1, c.choose(new boolean[] {true, true, true}));
        assertEquals(1, c.choose(new boolean[] {true, false, false}), "a dry arm must not be chosen");
    }

    @Test
    void withoutStallDetectionAnEarlyWinnerKeepsTheBudgetAfterItStopsWinning() {
        ArmCredit c = armZeroWon(0);
        for (int k = 0; k < 30; k++) c.record(0, false);
        assertEquals(0, c.choose(NONE_DRY));
    }

    @Test
    void aStallForgetsTheCreditSoEveryArmGetsAnotherTurn() {
        ArmCredit c = armZeroWon(10);
        for (int k = 0; k < 9; k++) c.record(0, false);
        assertEquals(0, c.choose(NONE_DRY), "nine results without a gain are not yet a stall");
        c.record(0, false);
        for (int expected = 0; expected < 3; expected++) {
            int arm = c.choose(NONE_DRY);
            assertEquals(expected, arm, "after a stall every arm is untried again, in order");
            c.record(arm, false);
        }
    }

    @Test
    void aGainEndsTheCountTowardsAStall() {
        ArmCredit c = armZeroWon(10);
        for (int k = 0; k < 9; k++) c.record(0, false);
        c.record(0, true);
        for (int k = 0; k < 9; k++) c.record(0, false);
        assertEquals(0, c.choose(NONE_DRY));
    }
}

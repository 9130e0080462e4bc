package org.tunefarm.coordinator.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tunefarm.coordinator.door.RegistrationLimits;

class AdmissionTest {
    long now = 1_700_000_000_000L;

    @Test void unregisteredConnectionsAreCountedPerAddressAndInTotal() {
        Admission a = new Admission(new RegistrationLimits(2, 3, 10, 1000), () -> now);
        assertNull(a.admit("10.0.0.1"));
        assertNull(a.admit("10.0.0.1"));
        assertEquals("too-many-unregistered-from-address", a.admit("10.0.0.1")[0]);
        assertNull(a.admit("10.0.0.2"));
        assertEquals("too-many-unregistered", a.admit("10.0.0.3")[0], "the total is reached before the third address's own limit");
        assertEquals(3, a.unregistered());
        a.settled("10.0.0.1");
        assertNull(a.admit("10.0.0.3"));
        a.settled("10.0.0.1");
        a.settled("10.0.0.2");
        a.settled("10.0.0.3");
        assertEquals(0, a.unregistered());
        assertNull(a.admit("10.0.0.1"));
        assertNull(a.admit("10.0.0.1"), "settled connections free their address's places");
    }

    @Test void failedRegistrationsShutAnAddressOutForTheRestOfTheMinuteOnly() {
        Admission a = new Admission(new RegistrationLimits(100, 100, 3, 1000), () -> now);
        now = 60_000L * 1000; // the start of a minute
        for (int i = 0; i < 3; i++) {
            assertFalse(a.failedTooOften("10.0.0.9"));
            a.failed("10.0.0.9");
        }
        assertTrue(a.failedTooOften("10.0.0.9"));
        String[] refused = a.admit("10.0.0.9");
        assertNotNull(refused);
        assertEquals("too-many-failures", refused[0]);
        assertNull(a.admit("10.0.0.8"), "other addresses are not affected");
        now += 60_000;
        assertFalse(a.failedTooOften("10.0.0.9"), "a new minute, a new budget");
        assertNull(a.admit("10.0.0.9"));
    }
}

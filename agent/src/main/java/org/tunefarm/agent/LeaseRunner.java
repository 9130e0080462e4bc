package org.tunefarm.agent;

import java.util.function.Consumer;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Lease;

/** Measures every candidate of a lease, handing each measurement over as soon as it is taken. */
public interface LeaseRunner {
    void run(Lease lease, Consumer<Measurement> each) throws InterruptedException;
}

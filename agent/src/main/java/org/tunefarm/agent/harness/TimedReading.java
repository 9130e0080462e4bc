package org.tunefarm.agent.harness;

import org.tunefarm.measure.SensorReading;

/** A sensor reading and when it was taken, epoch ms. */
public record TimedReading(double atMs, SensorReading reading) {}

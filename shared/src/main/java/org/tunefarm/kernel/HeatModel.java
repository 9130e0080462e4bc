package org.tunefarm.kernel;

/**
 * The physics of the simulated heating device behind the {@code heatsim} kernel family: one lumped
 * thermal mass that the work heats and the air cools (Newton's law of cooling),
 *
 * <pre>
 *   dT/dt = P / C - (T - Tamb) / tau
 * </pre>
 *
 * with {@code C} the heat capacity (J/°C), {@code tau} the cooling time constant (s), so the
 * thermal resistance to the air is {@code R = tau / C} (°C/W) and a constant power P settles at
 * {@code Tamb + P R}. The clock stays at {@code maxMhz} up to {@code throttleC} (the trip point),
 * then falls linearly to {@code minMhz} at {@code floorC} and stays there. The power drawn is
 * {@code idleW} plus the running candidate's dynamic power, which scales with the clock
 * ({@link HeatSimSpec#dynamicW} at {@code maxMhz}); a candidate's call takes
 * {@link HeatSimSpec#callNsAtMax} scaled by {@code maxMhz / clock}.
 *
 * <p>So a wide candidate that draws more than the device can shed ({@code (throttleC - Tamb) / R -
 * idleW}) wins a short burst from cool and loses once hot, when its clock has fallen so far that
 * its power matches what the air takes away: {@link #steadyState} solves that balance.
 *
 * @param ambientC      temperature of the air, and of the device at rest
 * @param tauS          cooling time constant, seconds
 * @param capacityJPerC heat capacity, joules per °C
 * @param throttleC     where the clock starts to fall (the trip point the fake sysfs reports)
 * @param floorC        where the clock reaches {@code minMhz}
 * @param maxMhz        clock when cool
 * @param minMhz        lowest clock when hot
 * @param idleW         power drawn at rest
 */
public record HeatModel(double ambientC, double tauS, double capacityJPerC, double throttleC, double floorC,
                        double maxMhz, double minMhz, double idleW) {

    /** The bench's device: seconds-scale heating, so a sweep shows both a burst and a sustained winner within minutes. */
    public static final HeatModel BENCH = new HeatModel(35, 2.5, 0.5, 60, 70, 2000, 400, 0.5);

    public HeatModel {
        if (!(tauS > 0) || !(capacityJPerC > 0)) throw new IllegalArgumentException("tauS and capacityJPerC must be positive");
        if (!(floorC > throttleC) || !(throttleC > ambientC)) throw new IllegalArgumentException("need ambientC < throttleC < floorC");
        if (!(maxMhz > minMhz) || !(minMhz > 0)) throw new IllegalArgumentException("need 0 < minMhz < maxMhz");
        if (!(idleW >= 0)) throw new IllegalArgumentException("idleW must not be negative");
    }

    /** The same device, heating and cooling {@code factor} times faster (the same steady states). */
    public HeatModel faster(double factor) {
        return new HeatModel(ambientC, tauS / factor, capacityJPerC / factor, throttleC, floorC, maxMhz, minMhz, idleW);
    }

    /** Thermal resistance to the air, °C per watt. */
    public double resistance() {
        return tauS / capacityJPerC;
    }

    /** The clock at temperature {@code t}, MHz. */
    public double clockMhz(double t) {
        if (t <= throttleC) return maxMhz;
        if (t >= floorC) return minMhz;
        return maxMhz - (maxMhz - minMhz) * (t - throttleC) / (floorC - throttleC);
    }

    /** The temperature after {@code seconds} at constant power {@code watts}, from {@code t}: the exact solution. */
    public double advance(double t, double watts, double seconds) {
        double settled = ambientC + watts * resistance();
        return settled + (t - settled) * Math.exp(-seconds / tauS);
    }

    /** Power drawn while {@code dynamicWAtMax} runs at temperature {@code t}. */
    public double powerW(double dynamicWAtMax, double t) {
        return idleW + dynamicWAtMax * clockMhz(t) / maxMhz;
    }

    /** Where a candidate run without pause settles. */
    public record Steady(double temperatureC, double clockMhz, double callNs) {
        /** Calls per second. */
        public double callsPerSecond() {
            return 1e9 / callNs;
        }
    }

    /**
     * The steady state of a candidate run continuously: the temperature where the power it draws
     * equals what the air takes away, {@code T = Tamb + R P(clock(T))}. The right side falls as T
     * rises (the clock does), so there is exactly one such T; bisection finds it.
     */
    public Steady steadyState(double callNsAtMax, double dynamicWAtMax) {
        double lo = ambientC, hi = ambientC + resistance() * (idleW + dynamicWAtMax) + 1;
        for (int i = 0; i < 200; i++) {
            double t = (lo + hi) / 2;
            if (ambientC + resistance() * powerW(dynamicWAtMax, t) > t) lo = t;
            else hi = t;
        }
        double t = (lo + hi) / 2;
        double clock = clockMhz(t);
        return new Steady(t, clock, callNsAtMax * maxMhz / clock);
    }
}

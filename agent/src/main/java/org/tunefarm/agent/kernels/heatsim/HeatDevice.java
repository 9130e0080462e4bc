package org.tunefarm.agent.kernels.heatsim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.tunefarm.kernel.HeatModel;

/**
 * The simulated heating device's state, kept in a small memory-mapped file ({@value #STATE}) that
 * every process touching the device shares: the worker whose kernel heats it, and the ticker
 * ({@link HeatDeviceMain}) that lets it cool at rest and publishes it as a fake sysfs tree under
 * {@code sys/} for the agent's sensors. Whoever touches it first advances the model by the wall-clock
 * time since the last touch ({@link HeatModel#advance}, exact for constant power), under a file lock.
 *
 * <p>A running kernel declares the power it draws until a given time ({@link #draw}); past that
 * time the device idles, so a worker that stops (or is killed) leaves a device that cools.
 * Without a folder ({@link #inMemory}) the state lives in the one JVM and nothing is published.
 */
public final class HeatDevice {

    public static final String STATE = "state.bin";
    public static final String TRACE = "trace.csv";
    public static final String SYSFS = "sys";
    /** What the fake sysfs calls its thermal zone, as a Raspberry Pi does. */
    public static final String ZONE_TYPE = "cpu-thermal";
    private static final String ZONE = "class/thermal/thermal_zone0";
    private static final String CPUFREQ = "devices/system/cpu/cpu0/cpufreq";
    private static final String HWMON = "class/hwmon/hwmon0";

    private static final long MAGIC = 0x7475_6e65_6865_6174L; // "tuneheat"
    private static final int T = 8, AT = 16, DRAW = 24, UNTIL = 32, ENERGY = 40, MODEL = 48, SIZE = MODEL + 8 * 8;
    /** One channel per file per JVM: two channels of one JVM cannot both lock a file. */
    private static final Map<Path, FileChannel> CHANNELS = new ConcurrentHashMap<>();

    private final Path dir;
    private final FileChannel channel;
    private final ByteBuffer state;
    private final HeatModel model;
    /** The previous {@link #tick()}, for the mean power since. */
    private Reading lastTick;

    private HeatDevice(Path dir, FileChannel channel, ByteBuffer state) {
        this.dir = dir;
        this.channel = channel;
        this.state = state;
        this.model = readModel(state);
    }

    /** What the device is doing at one moment. */
    public record Reading(double atMs, double temperatureC, double clockMhz, double powerW, double energyJ) {}

    /** A new device at rest (settled at its idle power), in {@code dir} (replacing one there). */
    public static HeatDevice create(Path dir, HeatModel model) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(STATE).toAbsolutePath().normalize();
            ByteBuffer b = ByteBuffer.allocate(SIZE);
            init(b, model, nowMs());
            Path tmp = Files.createTempFile(dir, STATE, ".tmp");
            Files.write(tmp, b.array());
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            CHANNELS.remove(file);
            Files.deleteIfExists(dir.resolve(TRACE));
            HeatDevice d = open(dir);
            d.publishFixed();
            d.publish(d.advance());
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException("heatsim: cannot create the device in " + dir, e);
        }
    }

    /** The device kept in {@code dir} by {@link #create}. */
    public static HeatDevice open(Path dir) {
        Path file = dir.resolve(STATE).toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("heatsim: no device in " + dir + " (no " + STATE + ")");
        FileChannel ch = CHANNELS.computeIfAbsent(file, f -> {
            try {
                return FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException("heatsim: cannot open " + f, e);
            }
        });
        try {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE);
            if (map.getLong(0) != MAGIC) throw new IllegalArgumentException("heatsim: " + file + " is not a device state file");
            return new HeatDevice(dir, ch, map);
        } catch (IOException e) {
            throw new UncheckedIOException("heatsim: cannot map " + file, e);
        }
    }

    /** A device that lives in this JVM only: nothing is shared, nothing published. */
    public static HeatDevice inMemory(HeatModel model) {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        init(b, model, nowMs());
        return new HeatDevice(null, null, b);
    }

    public HeatModel model() {
        return model;
    }

    /** The folder it lives in, or null in memory. */
    public Path dir() {
        return dir;
    }

    /** The device now, after the model has caught up with the wall clock. */
    public Reading advance() {
        return update(nowMs(), 0, 0);
    }

    /**
     * One call of a kernel: the device now, then the call draws {@code dynamicW} (its power at the
     * full clock, scaled by the clock it runs at) for as long as it takes at the current clock,
     * {@code callNsAtMax x maxMhz / clock}.
     */
    public Reading call(double dynamicW, double callNsAtMax) {
        return update(nowMs(), dynamicW, callNsAtMax);
    }

    /** How long a call that takes {@code callNsAtMax} at the full clock takes at {@code clockMhz}. */
    public double callNs(double callNsAtMax, double clockMhz) {
        return callNsAtMax * model.maxMhz() / clockMhz;
    }

    private Reading update(double now, double dynamicW, double callNsAtMax) {
        // Every device of one file in this JVM shares its channel: the channel is the JVM's lock, the file lock the other processes'.
        synchronized (channel != null ? channel : state) {
            try (FileLock lock = channel == null ? null : channel.lock()) {
                double t = state.getDouble(T), at = state.getDouble(AT), draw = state.getDouble(DRAW), until = state.getDouble(UNTIL);
                double energy = state.getDouble(ENERGY);
                if (now > at) {
                    // Drawing until `until`, idle after: two segments of constant power, each exact.
                    // The clock (and so the power) is taken at each segment's start: segments are milliseconds.
                    double busyEnd = Math.min(now, Math.max(at, until));
                    if (busyEnd > at && draw > 0) {
                        double p = model.powerW(draw, t);
                        t = model.advance(t, p, (busyEnd - at) / 1000);
                        energy += p * (busyEnd - at) / 1000;
                        at = busyEnd;
                    }
                    t = model.advance(t, model.idleW(), (now - at) / 1000);
                    energy += model.idleW() * (now - at) / 1000;
                    at = now;
                }
                if (dynamicW > 0) {
                    draw = dynamicW;
                    until = now + callNs(callNsAtMax, model.clockMhz(t)) / 1e6;
                }
                state.putDouble(T, t).putDouble(AT, at).putDouble(DRAW, draw).putDouble(UNTIL, until).putDouble(ENERGY, energy);
                double power = now < until ? model.powerW(draw, t) : model.idleW();
                return new Reading(at, t, model.clockMhz(t), power, energy);
            } catch (IOException e) {
                throw new UncheckedIOException("heatsim: cannot lock the device state", e);
            }
        }
    }

    /**
     * Advances the model, writes the fake sysfs tree and appends a line to the temperature trace:
     * what a real board's firmware and sensors do on their own, continuously. One thread ticks a device.
     */
    public Reading tick() {
        Reading now = advance();
        // Power as a board's sensor reports it: the mean since the last reading, not whether a call runs this instant.
        Reading r = lastTick == null || now.atMs() <= lastTick.atMs() ? now : new Reading(now.atMs(), now.temperatureC(), now.clockMhz(),
                (now.energyJ() - lastTick.energyJ()) / ((now.atMs() - lastTick.atMs()) / 1000), now.energyJ());
        lastTick = now;
        if (dir != null) {
            publish(r);
            try {
                Files.writeString(dir.resolve(TRACE), String.format(Locale.ROOT, "%.1f,%.3f,%.0f,%.3f%n", r.atMs(), r.temperatureC(), r.clockMhz(), r.powerW()),
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("heatsim: cannot append to " + dir.resolve(TRACE), e);
            }
        }
        return r;
    }

    /** The root of the fake sysfs tree that {@code Sensors.linux(root)} reads. */
    public static Path sysfsRoot(Path dir) {
        return dir.resolve(SYSFS);
    }

    /**
     * The device as a Linux board shows it: a thermal zone of type {@value #ZONE_TYPE} with its
     * passive trip point (where the clock starts to fall), cpufreq's current and maximum clock, and
     * an hwmon power and energy sensor. Each file is replaced atomically, so a reader never sees
     * half a number.
     */
    private void publish(Reading r) {
        Path sys = sysfsRoot(dir);
        write(sys.resolve(ZONE + "/temp"), Long.toString(Math.round(r.temperatureC() * 1000)));
        write(sys.resolve(CPUFREQ + "/scaling_cur_freq"), Long.toString(Math.round(r.clockMhz() * 1000)));
        write(sys.resolve(CPUFREQ + "/cpuinfo_cur_freq"), Long.toString(Math.round(r.clockMhz() * 1000)));
        write(sys.resolve(HWMON + "/power1_input"), Long.toString(Math.round(r.powerW() * 1e6)));
        write(sys.resolve(HWMON + "/energy1_input"), Long.toString(Math.round(r.energyJ() * 1e6)));
    }

    /** What does not change: the zone's type and trip point, the maximum clock, the sensor's name. */
    private void publishFixed() {
        Path sys = sysfsRoot(dir);
        write(sys.resolve(ZONE + "/type"), ZONE_TYPE);
        write(sys.resolve(ZONE + "/trip_point_0_type"), "passive");
        write(sys.resolve(ZONE + "/trip_point_0_temp"), Long.toString(Math.round(model.throttleC() * 1000)));
        write(sys.resolve(CPUFREQ + "/cpuinfo_max_freq"), Long.toString(Math.round(model.maxMhz() * 1000)));
        write(sys.resolve(HWMON + "/name"), "heatsim");
    }

    private static void write(Path file, String value) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
            Files.writeString(tmp, value + "\n", StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("heatsim: cannot write " + file, e);
        }
    }

    /** Epoch milliseconds with microseconds: the time base every process of the device shares. */
    public static double nowMs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
    }

    private static void init(ByteBuffer b, HeatModel m, double now) {
        b.putLong(0, MAGIC).putDouble(T, m.ambientC() + m.idleW() * m.resistance()).putDouble(AT, now).putDouble(DRAW, 0).putDouble(UNTIL, 0).putDouble(ENERGY, 0);
        double[] params = {m.ambientC(), m.tauS(), m.capacityJPerC(), m.throttleC(), m.floorC(), m.maxMhz(), m.minMhz(), m.idleW()};
        for (int i = 0; i < params.length; i++) b.putDouble(MODEL + 8 * i, params[i]);
    }

    private static HeatModel readModel(ByteBuffer b) {
        double[] p = new double[8];
        for (int i = 0; i < p.length; i++) p[i] = b.getDouble(MODEL + 8 * i);
        return new HeatModel(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    }
}

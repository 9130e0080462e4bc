package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import com.fasterxml.jackson.databind.JsonNode;
import org.tunefarm.coordinator.sweep.Search;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.protocol.Protocol;

/**
 * The sweeps a coordinator accepted, one JSON line each, fsynced before the sweep is acknowledged,
 * so a restarted farm knows what it was asked to do and resumes it from the record log. It also
 * keeps when each device class's searches of a sweep began, and on how many cores: that fixes
 * the class's search space and its time window, so a restarted or new leader rebuilds the same
 * searches (and keeps their deadlines) before any agent of the class is back. The same line keeps
 * the class's {@link DeviceProfile}: the published table describes each class by it (CPU model,
 * ISA, cores), and this log is the durable state every coordinator already holds a copy of, so a
 * restarted or new leader knows every class that has records without any agent of it online
 * (registration alone is not durable, and every class with records began a search). Operators' changes
 * to a sweep (pause, resume, cancel, priority) are lines of the same file, {@code {"control": {...}}},
 * so the sweeps and their changes travel and restore together. A sweep that is over and has let
 * its searches go ({@code SweepRun.retire}) gets a line with its final status, so a restart
 * restores it as it was let go instead of rebuilding every search of a season's history from the
 * records: that was most of a restarted leader's heap and the longest part of its takeover.
 *
 * <p>Opened like the record log: a torn last line is cut, any other unreadable line goes to the
 * quarantine beside it. A torn last line is also cut before each append, so an append never
 * glues itself onto a half-written line.
 */
public final class SweepLog {
    private static final Logger LOG = Logger.getLogger(SweepLog.class.getName());
    private static final String CONTROL = "control";

    /**
     * One accepted sweep ({@code spec} set), the start of a device class's searches in sweep
     * {@code id} ({@code classStart} set, {@code createdAt} the start of its time window), or the
     * final status of a sweep that let its searches go ({@code retired} set, {@code createdAt} when).
     * Coordinators that predate {@code retired} read such a line as neither, and skip it.
     */
    public record Entry(String id, long createdAt, SweepSpec spec, ClassStart classStart, Retired retired) {
        /** An accepted sweep. */
        public Entry(String id, long createdAt, SweepSpec spec) {
            this(id, createdAt, spec, null, null);
        }

        /**
         * The searches of {@code deviceClass} in sweep {@code sweepId} began at {@code at}, on
         * {@code cores} cores and {@code vectorBits}-bit vectors (0: scalar variants only), for
         * agents of this profile (null: not known).
         */
        public static Entry classStarted(String sweepId, String deviceClass, DeviceProfile profile, int cores, int vectorBits, long at) {
            return new Entry(sweepId, at, null, new ClassStart(deviceClass, cores, vectorBits, profile), null);
        }

        /** Sweep {@code sweepId} let its searches go at {@code at}, over, with these searches' last progress. */
        public static Entry retired(String sweepId, long at, List<Search.Progress> searches) {
            return new Entry(sweepId, at, null, null, new Retired(searches));
        }

        /** What makes an entry the same as another, for copies that arrive more than once. */
        String identity() {
            if (retired != null) return id + "/retired";
            return classStart == null ? id : id + "/" + classStart.deviceClass();
        }
    }

    /** What is left of an over sweep's searches once it let them go: each one's last progress, as its status shows it. */
    public record Retired(List<Search.Progress> searches) {
        public Retired {
            searches = searches == null ? List.of() : List.copyOf(searches);
        }
    }

    /**
     * A device class's searches of a sweep began, with the space for this many logical cores and
     * this vector width; {@code profile} is the class's profile, null in lines written before
     * profiles were kept.
     */
    public record ClassStart(String deviceClass, int cores, int vectorBits, DeviceProfile profile) {
        /** The profile, when it is the profile of this class (a line edited by hand may disagree). */
        public java.util.Optional<DeviceProfile> knownProfile() {
            return java.util.Optional.ofNullable(profile).filter(p -> p.deviceClass().equals(deviceClass));
        }
    }

    private final Path file;
    private final Quarantine quarantine;

    public SweepLog(Path file) throws IOException {
        this.file = file;
        this.quarantine = new Quarantine(file);
        LineScan.open(file, quarantine, SweepLog::parse);
    }

    /** Where this log keeps the lines it could not read. */
    public Quarantine quarantine() {
        return quarantine;
    }

    /** Appends an entry unless an equal one is already kept (copies arrive more than once). */
    public synchronized void appendIfAbsent(Entry e) throws IOException {
        for (Entry x : read()) if (x.identity().equals(e.identity())) return;
        append(e);
    }

    /**
     * Appends the entries and changes not yet kept, in one read of the log rather than one per
     * entry: a coordinator catching up is sent every sweep of a long season at once.
     */
    public synchronized void appendAllIfAbsent(List<Entry> entries, List<SweepControl> changes) throws IOException {
        // Every page of a catch-up but its first comes with none: the log is not read for nothing.
        if (entries.isEmpty() && changes.isEmpty()) return;
        java.util.Set<String> kept = new java.util.HashSet<>();
        for (Entry x : read()) kept.add(x.identity());
        java.util.Set<SweepControl> keptChanges = new java.util.HashSet<>(controls());
        StringBuilder text = new StringBuilder();
        for (Entry e : entries) if (kept.add(e.identity())) text.append(Protocol.write(e)).append('\n');
        for (SweepControl c : changes) if (keptChanges.add(c)) text.append(Protocol.write(java.util.Map.of(CONTROL, c))).append('\n');
        if (!text.isEmpty()) write(text.substring(0, text.length() - 1));
    }

    public synchronized void append(Entry e) throws IOException {
        write(Protocol.write(e));
    }

    /** Keeps an operator's change unless the same change is already kept (copies arrive more than once). */
    public synchronized void appendIfAbsent(SweepControl c) throws IOException {
        if (controls().contains(c)) return;
        write(Protocol.write(java.util.Map.of(CONTROL, c)));
    }

    /** A line of this log: an operator's change, or an entry. Strict, so a damaged line is refused whole. */
    private static Object parse(String line) throws IOException {
        JsonNode n = LineScan.strict(line, JsonNode.class);
        return n.has(CONTROL) ? Protocol.JSON.treeToValue(n.get(CONTROL), SweepControl.class) : Protocol.JSON.treeToValue(n, Entry.class);
    }

    private void write(String line) throws IOException {
        boolean created = !Files.exists(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            cutTornTail(ch);
            ByteBuffer buf = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
            ch.position(ch.size());
            while (buf.hasRemaining()) ch.write(buf);
            ch.force(false);
        }
        if (created) Folder.sync(file);
    }

    /** A write that failed half-way leaves a line without its newline: it was never acknowledged. */
    private void cutTornTail(FileChannel ch) throws IOException {
        long size = ch.size();
        if (size == 0) return;
        ByteBuffer one = ByteBuffer.allocate(1);
        ch.read(one, size - 1);
        if (one.get(0) == '\n') return;
        long end = size;
        ByteBuffer chunk = ByteBuffer.allocate(4096);
        while (end > 0) {
            long from = Math.max(0, end - chunk.capacity());
            chunk.clear().limit((int) (end - from));
            ch.read(chunk, from);
            for (int i = chunk.position() - 1; i >= 0; i--) {
                if (chunk.get(i) == '\n') {
                    cut(ch, from + i + 1, size);
                    return;
                }
            }
            end = from;
        }
        cut(ch, 0, size);
    }

    private void cut(FileChannel ch, long at, long size) throws IOException {
        LOG.warning(() -> file + ": cutting a torn last line at byte " + at + " (" + (size - at) + " bytes) before appending");
        ch.truncate(at);
        ch.force(true);
    }

    /** Every readable entry (sweeps and class starts), in append order; a line damaged since the log was opened is skipped. */
    public synchronized List<Entry> read() throws IOException {
        List<Entry> out = new ArrayList<>();
        for (JsonNode n : lines()) {
            if (n.has(CONTROL)) continue;
            try {
                out.add(Protocol.JSON.treeToValue(n, Entry.class));
            } catch (IOException ex) {
                LOG.warning(() -> file + ": skipping an unreadable sweep line: " + ex.getMessage());
            }
        }
        return out;
    }

    /** The operators' changes, in the order they were accepted (by the leader's clock, then as kept). */
    public synchronized List<SweepControl> controls() throws IOException {
        List<SweepControl> out = new ArrayList<>();
        for (JsonNode n : lines()) {
            if (!n.has(CONTROL)) continue;
            try {
                out.add(Protocol.JSON.treeToValue(n.get(CONTROL), SweepControl.class));
            } catch (IOException ex) {
                LOG.warning(() -> file + ": skipping an unreadable sweep change: " + ex.getMessage());
            }
        }
        out.sort(java.util.Comparator.comparingLong(SweepControl::at)); // stable: equal times keep their order
        return out;
    }

    private List<JsonNode> lines() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(file)) return out;
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        int lineStart = 0;
        for (int i = text.indexOf('\n'); i >= 0; lineStart = i + 1, i = text.indexOf('\n', lineStart)) {
            String line = text.substring(lineStart, i);
            if (line.isBlank()) continue;
            try {
                out.add(Protocol.JSON.readTree(line));
            } catch (IOException ex) {
                LOG.warning(() -> file + ": skipping an unreadable sweep line (quarantined at the next start)");
            }
        }
        return out;
    }
}

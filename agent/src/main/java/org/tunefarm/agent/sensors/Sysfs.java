package org.tunefarm.agent.sensors;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A sysfs tree under a root (normally {@code /sys}; a fake one in tests), read leniently: a file
 * that is absent, unreadable, empty (some drivers answer EIO) or not a number is null, never 0.
 */
final class Sysfs {

    private final Path root;
    private final SysfsReader reader;

    Sysfs(Path root, SysfsReader reader) {
        this.root = root;
        this.reader = reader;
    }

    Path root() {
        return root;
    }

    /** The folders matching {@code glob} in {@code dir} (relative to the root or absolute), in natural order: zone2 before zone10. */
    List<Path> dirs(Path dir, String glob) {
        Path d = root.resolve(dir);
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(d)) return out;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(d, glob)) {
            for (Path p : s) if (Files.isDirectory(p)) out.add(p);
        } catch (IOException | SecurityException e) {
            return out;
        }
        out.sort(NATURAL);
        return out;
    }

    /** The regular files matching {@code glob} in {@code dir}, in natural order. */
    List<Path> files(Path dir, String glob) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, glob)) {
            for (Path p : s) if (Files.isRegularFile(p)) out.add(p);
        } catch (IOException | SecurityException e) {
            return out;
        }
        out.sort(NATURAL);
        return out;
    }

    /** The file's first line, stripped; null when absent, unreadable or empty. */
    String text(Path file) {
        try {
            String t = reader.read(file).strip();
            int nl = t.indexOf('\n');
            if (nl >= 0) t = t.substring(0, nl).strip();
            return t.isEmpty() ? null : t;
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** The file's number; null when absent, unreadable, empty or not a finite number. */
    Double number(Path file) {
        String t = text(file);
        if (t == null) return null;
        try {
            double v = Double.parseDouble(t);
            return Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Whether the file exists but this process may not read it (root-only sysfs files). */
    boolean denied(Path file) {
        if (!Files.isRegularFile(file)) return false;
        try {
            reader.read(file);
            return false;
        } catch (AccessDeniedException e) {
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** thermal_zone2 before thermal_zone10, temp2_input before temp10_input: the first number in the name, then the name. */
    static final Comparator<Path> NATURAL = Comparator.<Path>comparingLong(p -> firstNumber(p.getFileName().toString()))
            .thenComparing(p -> p.getFileName().toString());

    /** The first run of digits in a name, or -1 when it has none. */
    static long firstNumber(String name) {
        int i = 0;
        while (i < name.length() && !Character.isDigit(name.charAt(i))) i++;
        int j = i;
        while (j < name.length() && j - i < 18 && Character.isDigit(name.charAt(j))) j++;
        return i == j ? -1 : Long.parseLong(name.substring(i, j));
    }
}

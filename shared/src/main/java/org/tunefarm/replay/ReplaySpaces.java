package org.tunefarm.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.tunefarm.kernel.KernelSpecs;

/**
 * The replayed spaces of a folder, one {@link ReplaySpec} per Kernel Tuner cache file
 * ({@code *.json} or {@code *.json.gz}) in it. Coordinator, agent and worker each register the
 * same folder at start-up (coordinator and agent from {@code --spaces DIR}, the worker from
 * {@value #PROPERTY}), so all three know the same {@code replay.*} operations.
 */
public final class ReplaySpaces {
    /** System property naming the spaces folder; unset means no replay kernels. */
    public static final String PROPERTY = "tunefarm.spaces";

    private ReplaySpaces() {}

    /** The specs for the cache files in {@code dir}, sorted by operation name; nothing is read yet. */
    public static List<ReplaySpec> in(Path dir) {
        if (!Files.isDirectory(dir)) throw new IllegalArgumentException("spaces: " + dir + " is not a folder");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches(".+\\.json(\\.gz)?") && Files.isRegularFile(f))
                    .map(ReplaySpec::new).sorted(java.util.Comparator.comparing(ReplaySpec::op)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("spaces: cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Registers every cache file of {@code dir} with {@link KernelSpecs}; returns the registered specs. */
    public static List<ReplaySpec> register(Path dir) {
        List<ReplaySpec> out = new ArrayList<>();
        for (ReplaySpec s : in(dir)) out.add((ReplaySpec) KernelSpecs.register(s));
        return out;
    }

    /** Registers the folder named by {@value #PROPERTY}; none when it is unset or blank. */
    public static List<ReplaySpec> registerFromSystemProperty() {
        String dir = System.getProperty(PROPERTY);
        return dir == null || dir.isBlank() ? List.of() : register(Path.of(dir.strip()));
    }
}

package org.tunefarm.coordinator.replay;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds shared/data/spaces beside the repository (CI checks shared/ out next to it); as in shared's tests. */
public final class SpacesFolder {
    private SpacesFolder() {}

    /** The folder, or null when no ancestor of the working directory holds shared/data/spaces. */
    public static Path find() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared/data/spaces");
            if (Files.isDirectory(candidate)) return candidate;
        }
        return null;
    }
}

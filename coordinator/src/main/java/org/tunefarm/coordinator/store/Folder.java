package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The folder a log lives in. A file's creation, and a rename over it, are durable only once the
 * folder's entry is fsynced too: otherwise power loss can leave a folder without the file whose
 * contents were fsynced.
 */
final class Folder {
    private Folder() {}

    /** Fsyncs the folder holding {@code file}. */
    static void sync(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** Creates {@code file} (and its folders) if absent, with the creation made durable. */
    static void create(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (Files.exists(file)) return;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        sync(file);
    }
}

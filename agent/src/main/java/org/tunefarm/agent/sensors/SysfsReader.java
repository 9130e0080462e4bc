package org.tunefarm.agent.sensors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads one sysfs file's text. A seam so tests can make a file unreadable the way the kernel does
 * for a non-root user ({@link java.nio.file.AccessDeniedException}): a file of mode 000 is still
 * readable by root, which tests often run as.
 */
@FunctionalInterface
interface SysfsReader {

    String read(Path file) throws IOException;

    /** The files themselves. */
    SysfsReader FILES = Files::readString;
}

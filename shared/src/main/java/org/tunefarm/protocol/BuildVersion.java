package org.tunefarm.protocol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * The build version of the running jar: what an agent reports at registration and a coordinator
 * shows in /api/health, so an operator of a mixed fleet sees who runs what. It is the jar
 * manifest's {@code Implementation-Version} (the Maven project version); {@value #DEV} when the code
 * runs from class folders, as in tests.
 */
public final class BuildVersion {
    public static final String DEV = "dev";
    private static final String CURRENT = detect();

    private BuildVersion() {}

    public static String current() {
        return CURRENT;
    }

    /** The version written in a jar's manifest, or null when it has none. */
    public static String of(Path jar) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            var m = j.getManifest();
            return m == null ? null : m.getMainAttributes().getValue("Implementation-Version");
        }
    }

    /** The jar this JVM was started from with {@code java -jar}, or null. */
    public static Path launchJar() {
        String cp = System.getProperty("java.class.path", "");
        if (cp.isEmpty() || cp.contains(java.io.File.pathSeparator) || !cp.endsWith(".jar")) return null;
        Path p = Path.of(cp).toAbsolutePath();
        return Files.isRegularFile(p) ? p : null;
    }

    private static String detect() {
        Path jar = launchJar();
        if (jar != null) {
            try {
                String v = of(jar);
                if (v != null && !v.isBlank()) return v.strip();
            } catch (IOException | RuntimeException unreadable) {
                // fall through to the package's version
            }
        }
        String v = BuildVersion.class.getPackage().getImplementationVersion();
        return v != null && !v.isBlank() ? v : DEV;
    }
}

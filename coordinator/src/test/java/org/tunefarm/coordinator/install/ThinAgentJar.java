package org.tunefarm.coordinator.install;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A runnable agent jar for tests: the module build has compiled the agent's classes but not yet
 * shaded its jar, so this jar holds only a manifest whose Class-Path lists this JVM's class path.
 * {@code java -jar} on it runs the real {@code AgentMain}, as a board runs the shaded jar.
 */
final class ThinAgentJar {
    private ThinAgentJar() {}

    static Path write(Path jar) throws IOException {
        List<String> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isBlank()) urls.add(Path.of(entry).toAbsolutePath().toUri().toString());
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "org.tunefarm.agent.AgentMain");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        Files.createDirectories(jar.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
            j.flush();
        }
        return jar;
    }
}

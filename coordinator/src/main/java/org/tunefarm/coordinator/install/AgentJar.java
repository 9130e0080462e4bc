package org.tunefarm.coordinator.install;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The agent jar this coordinator hands to boards, and its SHA-256.
 *
 * <p>Where it is: {@code -Dtunefarm.agentJar} when set (the launcher and the coordinator image set
 * it); otherwise beside the coordinator's own jar ({@code tunefarm-agent.jar}, or
 * {@code tunefarm-agent-*-all.jar}), or, in a checkout, {@code agent/target/} next to the
 * {@code coordinator/target/} the coordinator runs from. A jar rebuilt while the coordinator runs is
 * hashed again, so the checksum always describes the bytes served.
 */
final class AgentJar {
    static final String PROPERTY = "tunefarm.agentJar";

    private final Optional<Path> path;
    private Path hashedPath;
    private long hashedSize = -1;
    private long hashedModified = -1;
    private String sha256;

    private AgentJar(Optional<Path> path) {
        this.path = path;
    }

    /** The jar named by the system property, else the one found near this coordinator's code. */
    static AgentJar locate() {
        String named = System.getProperty(PROPERTY);
        if (named != null && !named.isBlank()) return new AgentJar(Optional.of(Path.of(named).toAbsolutePath()));
        return new AgentJar(besideCoordinator());
    }

    static AgentJar at(Path jar) {
        return new AgentJar(Optional.of(jar.toAbsolutePath()));
    }

    /** The jar, when one is there to serve now. */
    Optional<Path> file() {
        return path.filter(Files::isRegularFile);
    }

    /** Where it was looked for, for the 404 that says why. */
    String lookedFor() {
        return path.map(Path::toString).orElse("-D" + PROPERTY + " or beside the coordinator jar");
    }

    /** Hex SHA-256 of the jar's current bytes; reads the file again only when it changed. Blocking. */
    synchronized String sha256() throws IOException {
        Path jar = file().orElseThrow(() -> new IOException("no agent jar at " + lookedFor()));
        long size = Files.size(jar);
        long modified = Files.getLastModifiedTime(jar).toMillis();
        if (!jar.equals(hashedPath) || size != hashedSize || modified != hashedModified) {
            sha256 = digest(jar);
            hashedPath = jar;
            hashedSize = size;
            hashedModified = modified;
        }
        return sha256;
    }

    static String digest(Path file) throws IOException {
        try (DigestInputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(in.getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static Optional<Path> besideCoordinator() {
        Path code;
        try {
            code = Path.of(AgentJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException | SecurityException e) {
            return Optional.empty();
        }
        Path dir = code.getParent(); // the jar's folder, or target/ for target/classes
        if (dir == null) return Optional.empty();
        Optional<Path> here = firstJar(dir);
        if (here.isPresent()) return here;
        // A checkout: coordinator/target/ -> agent/target/
        Path module = dir.getParent();
        return module == null || module.getParent() == null ? Optional.empty() : firstJar(module.getParent().resolve("agent").resolve("target"));
    }

    private static Optional<Path> firstJar(Path dir) {
        if (Files.isRegularFile(dir.resolve("tunefarm-agent.jar"))) return Optional.of(dir.resolve("tunefarm-agent.jar"));
        if (!Files.isDirectory(dir)) return Optional.empty();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("tunefarm-agent-.*-all\\.jar")).sorted().findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}

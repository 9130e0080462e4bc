package org.tunefarm.coordinator.credential;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.tunefarm.protocol.Protocol;

/**
 * A coordinator's own copy of every credential state, one JSON line per change, fsynced before the
 * change is acknowledged, so the farm's credentials survive a restart of every coordinator. Only
 * hashes are written; a line that does not parse (a torn last line) is skipped, never fatal.
 */
final class CredentialLog {
    private static final Logger LOG = Logger.getLogger(CredentialLog.class.getName());

    private final Path file;

    CredentialLog(Path file) throws IOException {
        this.file = file;
        Files.createDirectories(file.toAbsolutePath().getParent());
    }

    synchronized void append(List<Credential> cs) throws IOException {
        if (cs.isEmpty()) return;
        StringBuilder b = new StringBuilder();
        for (Credential c : cs) b.append(Protocol.write(c)).append('\n');
        boolean created = !Files.exists(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8)));
            ch.force(false);
        }
        if (created) {
            // Hashes only, but still nobody else's business.
            try {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system
            }
        }
    }

    /** The newest state of every id in the file. */
    synchronized Map<String, Credential> read() throws IOException {
        Map<String, Credential> out = new LinkedHashMap<>();
        if (!Files.exists(file)) return out;
        int skipped = 0;
        // Decoded leniently: a damaged byte costs its line, not the file.
        for (String line : new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) continue;
            try {
                Credential c = Protocol.JSON.readValue(line, Credential.class);
                if (c.agentId() == null || c.state() == null) throw new IOException("agentId and state are required");
                if (c.newerThan(out.get(c.agentId()))) out.put(c.agentId(), c);
            } catch (IOException e) {
                skipped++;
            }
        }
        if (skipped > 0) {
            int n = skipped;
            LOG.warning(() -> file + ": skipped " + n + " unreadable credential line(s)");
        }
        return out;
    }
}

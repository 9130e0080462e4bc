package org.tunefarm.coordinator.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Logger;
import org.tunefarm.protocol.Protocol;

/**
 * The audit log of one coordinator: {@code audit.jsonl} in its data folder, one JSON object per
 * action ({@code at}, {@code action}, {@code credential}, {@code agentId}, {@code remote},
 * {@code details}), appended and fsynced. Each coordinator writes the actions taken through it;
 * the farm's history is the union of its coordinators' logs. It fsyncs: call it off the event loop.
 */
public final class AuditLog implements Audit {
    private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());

    private final Path file;

    public AuditLog(Path file) {
        this.file = file;
    }

    @Override public synchronized void record(String action, Who who, Map<String, ?> details) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("at", java.time.Instant.now().toString());
        line.put("action", action);
        line.put("credential", who.credential());
        line.put("agentId", who.agentId());
        line.put("remote", who.remote());
        line.put("details", details);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                ch.write(ByteBuffer.wrap((Protocol.write(line) + "\n").getBytes(StandardCharsets.UTF_8)));
                ch.force(false);
            }
        } catch (IOException e) {
            // The action happened; a full disk must not undo it, but someone must hear of it.
            LOG.severe("audit log " + file + " not written (" + action + " by " + who + "): " + e.getMessage());
        }
    }

    public Path file() {
        return file;
    }
}

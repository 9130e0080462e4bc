package org.tunefarm.agent.link;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The file where an agent keeps the credential it got when it enrolled: readable by the agent's
 * user only (0600), written whole or not at all (a temporary file moved into place), so a power
 * cut never leaves half a credential. The agent reads it before every connection, so an operator
 * can put in place one an admin issued ({@code ./tunefarm agents enroll ID --out FILE}).
 */
public final class CredentialFile {
    private final Path file;

    public CredentialFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /** The credential, or null when the agent has none yet. */
    public String read() throws IOException {
        if (!Files.exists(file)) return null;
        String s = Files.readString(file, StandardCharsets.UTF_8).strip();
        return s.isEmpty() ? null : s;
    }

    public void write(String credential) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            try {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------")); // a state folder we made is ours alone
            } catch (UnsupportedOperationException ignored) {
                // not POSIX: the file's own mode is all there is
            }
        }
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(tmp);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("cannot create " + tmp + ": it appeared meanwhile", e);
        }
        Files.writeString(tmp, credential + "\n", StandardCharsets.UTF_8);
        try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The farm does not know this credential (its data was wiped): the agent enrolls anew. */
    public void forget() throws IOException {
        Files.deleteIfExists(file);
    }
}

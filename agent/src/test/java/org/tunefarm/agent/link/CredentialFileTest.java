package org.tunefarm.agent.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialFileTest {
    @TempDir Path dir;

    @Test void theCredentialIsKeptWholeAndReadableByItsOwnerOnly() throws Exception {
        CredentialFile f = new CredentialFile(dir.resolve("state").resolve("board-1.credential"));
        assertNull(f.read(), "none before enrolling");
        f.write("first-secret");
        assertEquals("first-secret", f.read());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path().getParent())));
        f.write("second-secret");
        assertEquals("second-secret", f.read(), "replaced whole");
        try (var files = Files.list(f.path().getParent())) {
            assertEquals(1, files.count(), "no temporary file left behind");
        }
        f.forget();
        assertFalse(Files.exists(f.path()));
        assertNull(f.read());
    }
}

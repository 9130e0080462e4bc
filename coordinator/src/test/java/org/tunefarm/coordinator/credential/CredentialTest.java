package org.tunefarm.coordinator.credential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.protocol.Protocol;

class CredentialTest {
    @TempDir Path dir;

    @Test void onlyTheIssuedSecretMatchesAndNothingStoredRevealsIt() {
        Credential.Issued a = Credential.issue("board-1", "agent@x", 1);
        Credential.Issued b = Credential.issue("board-1", "agent@x", 1);
        assertNotEquals(a.secret(), b.secret());
        assertTrue(a.stored().matches(a.secret()));
        assertFalse(a.stored().matches(b.secret()));
        assertFalse(a.stored().matches(a.secret() + "x"));
        assertFalse(a.stored().matches(null));
        assertFalse(Protocol.write(a.stored()).contains(a.secret()));
        assertFalse(a.toString().contains(a.secret()));
        assertFalse(Credential.revoked("board-1", "admin@y", 2).matches(a.secret()), "a revoked id admits nobody");
    }

    @Test void theNewestStateWinsWhateverOrderCopiesArriveIn() throws Exception {
        Credential first = Credential.issue("b", "agent@x", 100).stored();
        Credential revoked = Credential.revoked("b", "admin@y", 200);
        Credential again = Credential.issue("b", "admin@y", 300).stored();
        assertTrue(revoked.newerThan(first));
        assertFalse(first.newerThan(revoked));
        assertTrue(again.newerThan(revoked));
        Credential tie = Credential.issue("b", "admin@z", 300).stored();
        assertTrue(again.newerThan(tie) != tie.newerThan(again), "a tie is broken the same way on every coordinator");

        CredentialLog log = new CredentialLog(dir.resolve("credentials.jsonl"));
        log.append(List.of(again, first));
        log.append(List.of(revoked));
        Files.writeString(dir.resolve("credentials.jsonl"), "{\"agentId\":\"torn", java.nio.file.StandardOpenOption.APPEND);
        Map<String, Credential> read = log.read();
        assertEquals(Map.of("b", again), read, "newest wins; a torn line is skipped");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("credentials.jsonl"))));
    }
}

package org.tunefarm.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.ScriptedAgent;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Register;

/** {@code tunefarm agents}, {@code agents enroll ID --out FILE} and {@code agents revoke ID} against a real coordinator. */
class AgentsCommandTest {
    static final String ADMIN = "cli-admin";
    @TempDir static Path data;
    static Coordinator coordinator;

    @BeforeAll static void start() throws Exception {
        coordinator = new Coordinator(TestFarm.config(data).withTokens("cli-token", ADMIN)).start();
    }

    @AfterAll static void stop() throws Exception {
        if (coordinator != null) coordinator.close();
    }

    static String run(String... args) {
        PrintStream out = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true));
        try {
            List<String> all = new java.util.ArrayList<>(List.of("agents", "--api", "http://127.0.0.1:" + coordinator.httpPort(), "--admin-token", ADMIN));
            all.addAll(List.of(args));
            assertEquals(0, TunefarmCli.commandLine().execute(all.toArray(String[]::new)), buf.toString());
            return buf.toString();
        } finally {
            System.setOut(out);
        }
    }

    @Test void enrollWritesAnOwnerOnlyFileRevokeLocksOutAndTheListShowsBoth() throws Exception {
        Path file = data.resolve("board-9.credential");
        run("enroll", "board-9", "--out", file.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String credential = Files.readString(file).strip();
        try (ScriptedAgent board = new ScriptedAgent(coordinator.bridgePort(), credential, "board-9", "CLI CPU")) {
            board.register();
            run("revoke", "board-9");
            assertTrue(board.link.read() instanceof RawBridge.Closed, "revoked: its connection closes");
        }
        try (ScriptedAgent board = new ScriptedAgent(coordinator.bridgePort(), credential, "board-9", "CLI CPU")) {
            RawBridge.Frame f = (RawBridge.Frame) board.send(Protocol.REGISTER, new Register("board-9", board.profile, List.of("sleep")));
            assertEquals(403, f.frame().getInteger("failureCode"));
        }
        String list = run();
        assertTrue(list.lines().anyMatch(l -> l.startsWith("board-9") && l.contains("revoked") && l.contains("by admin@")), list);
    }
}

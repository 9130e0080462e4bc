package org.tunefarm.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The command lines the README shows parse, with the farm options before or after the subcommand. */
class TunefarmCliTest {

    static CommandLine.ParseResult parse(String... args) {
        return TunefarmCli.commandLine().parseArgs(args);
    }

    /** The user object of the command the arguments reach (the last one parsed, a method's parent for method subcommands). */
    static <T> T command(CommandLine.ParseResult r, Class<T> type) {
        List<CommandLine> list = r.asCommandLineList();
        for (int i = list.size() - 1; i >= 0; i--) {
            Object o = list.get(i).getCommandSpec().userObject();
            if (type.isInstance(o)) return type.cast(o);
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + list);
    }

    @Test void sweepStartTakesFarmOptionsAfterTheSubcommandAsTheReadmeWritesThem() {
        var r = parse("sweep", "start", "--api", "https://farm:8080", "--trust", "farm-cert.pem", "--admin-token", "t0k", "configs/sweeps/sleep.yaml");
        SweepCommand s = command(r, SweepCommand.class);
        assertEquals("https://farm:8080", s.farm.api);
        assertEquals(Path.of("farm-cert.pem"), s.farm.trust);
        assertEquals("t0k", s.adminToken);
        assertEquals(Path.of("configs/sweeps/sleep.yaml"), r.subcommand().subcommand().matchedPositionalValue(0, (Path) null));
    }

    @Test void farmOptionsBeforeTheSubcommandStillWork() {
        SweepCommand s = command(parse("sweep", "--api", "http://h:1", "status", "abc"), SweepCommand.class);
        assertEquals("http://h:1", s.farm.api);
        assertEquals("http://127.0.0.1:8080", command(parse("sweep", "status", "abc"), SweepCommand.class).farm.api, "the default");
    }

    @ParameterizedTest
    @ValueSource(strings = {"status ID --json", "watch ID --json --interval 2", "list --json", "pause ID", "resume ID", "cancel ID", "priority ID 5",
            "watch ID --plain"})
    void everySweepSubcommandParsesWithTheFarmOptionsAfterIt(String line) {
        String[] parts = (line + " --api http://farm:9 --admin-token a").split(" ");
        String[] args = new String[parts.length + 1];
        args[0] = "sweep";
        System.arraycopy(parts, 0, args, 1, parts.length);
        SweepCommand s = command(parse(args), SweepCommand.class);
        assertEquals("http://farm:9", s.farm.api);
        assertEquals(line.contains("--json"), s.json);
    }

    @Test void tableOptionsWorkAfterShowAndExport() {
        TableCommand t = command(parse("table", "show", "--api", "http://f:2", "--token", "r", "--op", "gemm", "--device-class", "c1", "--json"), TableCommand.class);
        assertEquals("http://f:2", t.farm.api);
        assertEquals("r", t.token);
        assertEquals("gemm", t.op);
        assertEquals("c1", t.deviceClass);
        assertEquals("http://f:3", command(parse("table", "export", "--out", "t.json", "--api", "http://f:3"), TableCommand.class).farm.api);
    }

    @Test void verboseIsAcceptedAnywhereAndSeen() {
        assertTrue(TunefarmCli.verbose(parse("coordinator", "--verbose", "--http-port", "1")));
        assertTrue(TunefarmCli.verbose(parse("--verbose", "demo")));
        assertFalse(TunefarmCli.verbose(parse("demo")));
    }

    @Test void anUnknownOptionIsStillRefused() {
        int rc = TunefarmCli.commandLine().setErr(new java.io.PrintWriter(java.io.Writer.nullWriter())).execute("sweep", "start", "--nope", "f.yaml");
        assertEquals(2, rc);
    }

    @Test void etaComesFromTheRateSeenWhileWatching() {
        assertEquals("1m00s", SweepWatch.eta(30, 10, 20_000, true), "10 in 20 s, 30 to go");
        assertEquals("?", SweepWatch.eta(30, 0, 20_000, true), "nothing measured yet");
        assertEquals("?", SweepWatch.eta(30, 10, 20_000, false), "no budget");
        assertEquals("2h00m", SweepWatch.eta(3600, 1, 2_000, true));
    }
}

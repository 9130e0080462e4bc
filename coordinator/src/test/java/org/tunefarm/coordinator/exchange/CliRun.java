package org.tunefarm.coordinator.exchange;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.tunefarm.coordinator.cli.TunefarmCli;

/** The real {@code tunefarm} command line run in this JVM: its exit code and what it printed. */
public record CliRun(int code, String out, String err) {

    public static synchronized CliRun of(String... args) {
        PrintStream out = System.out, err = System.err;
        ByteArrayOutputStream bo = new ByteArrayOutputStream(), be = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bo, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(be, true, StandardCharsets.UTF_8));
        try {
            int code = TunefarmCli.commandLine().execute(args);
            return new CliRun(code, bo.toString(StandardCharsets.UTF_8), be.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Override public String toString() {
        return "exit " + code + "\n" + out + err;
    }
}

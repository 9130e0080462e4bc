package org.tunefarm.agent.sensors;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/** The fake sysfs trees of the test resources ({@code sysfs/pi4}, ...), and ways to read them. */
final class FakeSysfs {
    private FakeSysfs() {}

    /** One board's tree: pi4, pi5, jetson-orin, x86-rapl, phone. */
    static Path tree(String board) {
        try {
            return Path.of(FakeSysfs.class.getResource("/sysfs/" + board).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fake vcgencmd script, copied executable into {@code dir} (resources lose their mode on copy). */
    static Path vcgencmd(Path dir) throws IOException {
        try {
            Path script = dir.resolve("vcgencmd");
            Files.copy(Path.of(FakeSysfs.class.getResource("/vcgencmd/vcgencmd").toURI()), script);
            script.toFile().setExecutable(true);
            return script;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads files as they are, except those {@code denied} matches: those fail as a root-only file does for another user. */
    static SysfsReader denying(Predicate<Path> denied) {
        return file -> {
            if (denied.test(file) && Files.exists(file)) throw new AccessDeniedException(file.toString());
            return SysfsReader.FILES.read(file);
        };
    }

    /** A firmware that answers {@code get_throttled} with this line. */
    static CommandRunner firmware(String reply) {
        return (argv, timeout) -> {
            if (!argv.equals(List.of("vcgencmd", "get_throttled"))) throw new AssertionError("asked " + argv);
            return new CommandRunner.Output(0, reply + "\n");
        };
    }

    /** No vcgencmd on this board. */
    static final CommandRunner NOT_A_PI = (argv, timeout) -> {
        throw new IOException("Cannot run program \"" + argv.get(0) + "\": error=2, No such file or directory");
    };

    static LinuxSensors linux(Path root, SysfsReader reader, ZoneTypes types, CommandRunner firmware) {
        return new LinuxSensors(new Sysfs(root, reader), types, new PiThrottle("vcgencmd", firmware));
    }

    static LinuxSensors linux(String board, CommandRunner firmware) {
        return linux(tree(board), SysfsReader.FILES, ZoneTypes.DEFAULT, firmware);
    }
}

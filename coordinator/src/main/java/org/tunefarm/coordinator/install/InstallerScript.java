package org.tunefarm.coordinator.install;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The installer a board fetches: {@code deploy/install-agent.sh} (in the jar as
 * {@code install/install-agent.sh}) made self-contained and told about this farm. The file sources its
 * Java finder and reads its systemd unit from beside itself; piped into bash on a board there is no
 * "beside", so both are written into the script, and its three {@code SERVED_*} lines get the
 * farm's URL, bridge port and bridge TLS.
 */
final class InstallerScript {
    static final String SOURCE_FIND_JDK = "source \"$HERE/find-jdk.sh\"";
    static final String UNIT_TEMPLATE = "unit_template() { cat \"$HERE/tunefarm-agent.service\"; }";

    private final String template;

    private InstallerScript(String template) {
        this.template = template;
    }

    /** Reads the script and the two files it includes from the class path; fails at start if one is missing. */
    static InstallerScript load() {
        String script = resource("install-agent.sh");
        String findJdk = resource("find-jdk.sh");
        String unit = resource("tunefarm-agent.service");
        if (unit.contains("\nUNIT\n")) throw new IllegalStateException("the unit template contains the heredoc's end marker");
        String inlined = replaceLine(script, SOURCE_FIND_JDK, findJdk.stripTrailing());
        inlined = replaceLine(inlined, UNIT_TEMPLATE, "unit_template() {\n  cat <<'UNIT'\n" + unit.stripTrailing() + "\nUNIT\n}");
        return new InstallerScript(inlined);
    }

    /**
     * The script for a board that reached this farm at {@code farmUrl}.
     *
     * @param farmUrl    {@code http(s)://host[:port]}, checked by the caller to hold no shell syntax
     * @param bridgePort the agent bridge's port
     * @param bridgeTls  whether the bridge speaks TLS
     */
    String render(String farmUrl, int bridgePort, boolean bridgeTls) {
        String s = replaceLine(template, "SERVED_FARM=\"\"", "SERVED_FARM=\"" + farmUrl + "\"");
        s = replaceLine(s, "SERVED_BRIDGE_PORT=\"\"", "SERVED_BRIDGE_PORT=\"" + bridgePort + "\"");
        return replaceLine(s, "SERVED_BRIDGE_TLS=\"\"", "SERVED_BRIDGE_TLS=\"" + (bridgeTls ? "1" : "") + "\"");
    }

    /** Replaces the one line that starts with {@code line} (trailing comments and all). */
    private static String replaceLine(String text, String line, String replacement) {
        int at = text.startsWith(line) ? 0 : text.indexOf("\n" + line) + 1;
        if (at <= 0 && !text.startsWith(line)) throw new IllegalStateException("install-agent.sh has no line '" + line + "'");
        if (text.indexOf("\n" + line, at) >= 0) throw new IllegalStateException("install-agent.sh has '" + line + "' twice");
        int end = text.indexOf('\n', at);
        return text.substring(0, at) + replacement + (end < 0 ? "" : text.substring(end));
    }

    private static String resource(String name) {
        try (InputStream in = InstallerScript.class.getResourceAsStream("/install/" + name)) {
            if (in == null) throw new IllegalStateException("install/" + name + " is missing from the coordinator's class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

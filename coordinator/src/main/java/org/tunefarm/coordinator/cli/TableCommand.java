package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code tunefarm table show|export}: the merged best-kernel table of a running farm. */
@Command(name = "table", description = "Show or export the best-kernel table of a running farm.", mixinStandardHelpOptions = true)
final class TableCommand {

    @Mixin
    FarmOptions farm;

    @Option(names = "--token", scope = ScopeType.INHERIT,
            description = "Read (or admin) token, when the farm protects reads (default: $TUNEFARM_READ_TOKEN).")
    String token = System.getenv("TUNEFARM_READ_TOKEN");

    @Option(names = "--device-class", scope = ScopeType.INHERIT, description = "Only this device class.")
    String deviceClass;

    @Option(names = "--op", scope = ScopeType.INHERIT, description = "Only this operation, e.g. gemm.")
    String op;

    @Command(name = "show", description = "Print the table.")
    int show(@Option(names = "--json", description = "Print the table document (schema tunefarm.table/1) instead of text.") boolean json) throws Exception {
        JsonNode t = fetch();
        if (json) System.out.println(SweepView.json(t));
        else TablePrinter.print(t, System.out);
        return 0;
    }

    @Command(name = "export", description = "Write the table as JSON (schema tunefarm.table/1).")
    int export(@Option(names = "--out", description = "File to write (default: standard output).") Path out) throws Exception {
        String json = Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(fetch());
        if (out == null) System.out.println(json);
        else Files.writeString(out, json + "\n");
        return 0;
    }

    private JsonNode fetch() throws Exception {
        StringBuilder q = new StringBuilder("/api/table?");
        if (deviceClass != null) q.append("deviceClass=").append(URLEncoder.encode(deviceClass, StandardCharsets.UTF_8)).append('&');
        if (op != null) q.append("op=").append(URLEncoder.encode(op, StandardCharsets.UTF_8));
        return new FarmClient(farm.api, token, farm.trust).get(q.toString());
    }
}

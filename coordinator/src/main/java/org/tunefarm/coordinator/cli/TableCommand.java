package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.tunefarm.coordinator.exchange.CHeader;
import org.tunefarm.coordinator.exchange.KernelTunerExport;
import org.tunefarm.coordinator.exchange.TableDiff;
import org.tunefarm.coordinator.exchange.TableSnapshot;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code tunefarm table show|export|import|diff}: the merged best-kernel table of a running farm,
 * in the forms others use it (JSON, CSV, a C header, Kernel Tuner caches); Kernel Tuner
 * measurements brought in; and what changed between two table files.
 */
@Command(name = "table", description = "Show, export, import or compare best-kernel tables.", mixinStandardHelpOptions = true)
final class TableCommand {
    /** {@code table diff}'s exit code when a winner got slower than the tolerance. */
    static final int SLOWER = 3;
    static final List<String> FORMATS = List.of("json", "csv", "c-header", "kernel-tuner");

    @Spec
    CommandSpec spec;

    @Mixin
    FarmOptions farm;

    @Option(names = "--token", scope = ScopeType.INHERIT,
            description = "Read (or admin) token, when the farm protects reads (default: $TUNEFARM_READ_TOKEN).")
    String token = System.getenv("TUNEFARM_READ_TOKEN");

    @Option(names = "--device-class", scope = ScopeType.INHERIT,
            description = "Only this device class (show, export); the class the measurements were made on (import).")
    String deviceClass;

    @Option(names = "--op", scope = ScopeType.INHERIT, description = "Only this operation, e.g. gemm.")
    String op;

    @Option(names = "--shape", scope = ScopeType.INHERIT, description = "Only this shape: 512x512x512 (the family's order) or M=512,N=512,K=512.")
    String shape;

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Print the table.")
    int show(@Option(names = "--json", description = "Print the table document as the farm serves it instead of text.") boolean json) throws Exception {
        JsonNode t = fetch();
        if (json) System.out.println(SweepView.json(t));
        else TablePrinter.print(t, System.out);
        return 0;
    }

    @Command(name = "export", mixinStandardHelpOptions = true, description = {
            "Write the table (filtered by --device-class, --op, --shape) as --format:",
            "  json          the document as the farm serves it (the default)",
            "  csv           the farm's CSV of it (GET /api/table?format=csv)",
            "  c-header      a C99 header for command kernels (ops that are not",
            "                built-in Java families; integer parameters): a static",
            "                table and tunefarm_lookup() by CPU model, op, dtype and",
            "                shape: exact, else the nearest shape within",
            "                TUNEFARM_MAX_DISTANCE, else the family default",
            "  kernel-tuner  Kernel Tuner cache JSON, one per (device class, kernel):",
            "                the winner and the default. One pair goes to --out FILE",
            "                or standard output; with several, --out must be a",
            "                folder (one file each), or narrow the filters."})
    int export(@Option(names = "--format", defaultValue = "json", paramLabel = "FORMAT",
                       description = "json, csv, c-header or kernel-tuner (default: ${DEFAULT-VALUE}).") String format,
               @Option(names = "--out", paramLabel = "PATH", description = "File (or folder, for several Kernel Tuner caches) to write; default: standard output.") Path out)
            throws Exception {
        if (!FORMATS.contains(format)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--format: unknown format '" + format + "' (expected one of " + String.join(", ", FORMATS) + ")");
        }
        switch (format) {
            case "csv" -> write(out, client().getText(query("csv")));
            case "c-header" -> {
                try {
                    write(out, CHeader.write(TableSnapshot.of(fetch())));
                } catch (CHeader.NothingQualifies e) {
                    System.err.println(e.getMessage());
                    return 1;
                }
            }
            case "kernel-tuner" -> {
                return kernelTuner(KernelTunerExport.caches(TableSnapshot.of(fetch())), out);
            }
            default -> write(out, Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(fetch()) + "\n");
        }
        return 0;
    }

    private int kernelTuner(List<KernelTunerExport.Cache> caches, Path out) throws IOException {
        if (caches.isEmpty()) {
            System.err.println("kernel-tuner: the table has no latency entry to export");
            return 1;
        }
        boolean folder = out != null && Files.isDirectory(out);
        if (caches.size() > 1 && !folder) {
            throw new CommandLine.ParameterException(spec.commandLine(), "kernel-tuner: the table holds " + caches.size()
                    + " (device class, kernel) pairs and a Kernel Tuner cache holds one: narrow it with --device-class, --op and --shape, or give --out an existing folder for one file each");
        }
        for (KernelTunerExport.Cache c : caches) {
            String json = Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(c.json()) + "\n";
            if (folder) {
                Files.writeString(out.resolve(c.fileName()), json);
                System.out.println(out.resolve(c.fileName()) + "  " + c.deviceClass() + "  " + c.kernelId());
            } else {
                write(out, json);
            }
        }
        return 0;
    }

    @Command(name = "import", mixinStandardHelpOptions = true, description = {
            "Bring a Kernel Tuner cache file's measurements into the farm as records",
            "of --device-class (needs the admin token). Times become OK records;",
            "InvalidConfig, CompilationFailedConfig and RuntimeFailedConfig become",
            "INVALID, BUILD_FAILED and CRASH. The table then holds the class's best.",
            "Importing the same file again stores nothing new."})
    int importCache(@Option(names = "--kernel-tuner", required = true, paramLabel = "FILE", description = "The cache file (.json, or .json.gz).") Path file,
                    @Option(names = "--admin-token", paramLabel = "TOKEN", description = "Admin token (default: $TUNEFARM_ADMIN_TOKEN, else --token).") String adminToken,
                    @Option(names = "--json", description = "Print the farm's answer as JSON.") boolean json) throws Exception {
        if (deviceClass == null || deviceClass.isBlank()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--device-class: required for import (the class the measurements were made on)");
        }
        byte[] body;
        try (InputStream in = open(file)) {
            body = in.readAllBytes();
        }
        String admin = adminToken != null ? adminToken : System.getenv("TUNEFARM_ADMIN_TOKEN") != null ? System.getenv("TUNEFARM_ADMIN_TOKEN") : token;
        JsonNode a = new FarmClient(farm.api, admin, farm.trust).post("/api/records/import?format=kernel-tuner&deviceClass="
                + URLEncoder.encode(deviceClass, StandardCharsets.UTF_8), body, "application/json");
        if (json) {
            System.out.println(SweepView.json(a));
            return 0;
        }
        System.out.printf("%s: %d configurations of %s on %s as sweep %s: %d imported, %d already stored, %d refused%s%n", file,
                a.path("records").asInt(), a.path("kernel").asText(), a.path("deviceClass").asText(), a.path("sweepId").asText(),
                a.path("imported").asInt(), a.path("duplicates").asInt(), a.path("refused").asInt(),
                a.path("truncated").asBoolean() ? " (the file is cut short: the configurations written in full were read)" : "");
        for (JsonNode r : a.path("refusals")) System.out.println("  refused " + r.path("key").asText() + ": " + r.path("reason").asText());
        return 0;
    }

    @Command(name = "diff", mixinStandardHelpOptions = true, description = {
            "Compare two table files (schema tunefarm.table/1 or /2): new winners,",
            "changed winners with the speedup (old median / new median), entries",
            "gone, and winners that got slower. Exit code: 0; 3 when a winner's",
            "median grew by more than --tolerance; 1 when a file cannot be read."})
    int diff(@Parameters(index = "0", paramLabel = "OLD") Path older, @Parameters(index = "1", paramLabel = "NEW") Path newer,
             @Option(names = "--tolerance", defaultValue = "0.05", paramLabel = "FRACTION", description = "How much slower a winner may get, as a fraction (default: ${DEFAULT-VALUE}, i.e. 5%%).") double tolerance,
             @Option(names = "--json", description = "Print the diff as one JSON object.") boolean json) throws Exception {
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tolerance: must be a finite number >= 0, got " + tolerance);
        }
        TableDiff d;
        try {
            d = new TableDiff(TableSnapshot.read(older), TableSnapshot.read(newer), tolerance);
        } catch (IOException e) {
            System.err.println("table diff: " + e.getMessage());
            return 1;
        }
        if (json) System.out.println(Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(d.json()));
        else d.print(System.out);
        return d.anySlower() ? SLOWER : 0;
    }

    private static InputStream open(Path file) throws IOException {
        InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file));
        in.mark(2);
        int b0 = in.read(), b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(in) : in;
    }

    private static void write(Path out, String text) throws IOException {
        if (out == null) System.out.print(text);
        else Files.writeString(out, text);
    }

    private FarmClient client() {
        return new FarmClient(farm.api, token, farm.trust);
    }

    private JsonNode fetch() throws Exception {
        return client().get(query(null));
    }

    private String query(String format) {
        StringBuilder q = new StringBuilder("/api/table?");
        if (format != null) q.append("format=").append(format).append('&');
        if (deviceClass != null) q.append("deviceClass=").append(URLEncoder.encode(deviceClass, StandardCharsets.UTF_8)).append('&');
        if (op != null) q.append("op=").append(URLEncoder.encode(op, StandardCharsets.UTF_8)).append('&');
        if (shape != null) q.append("shape=").append(URLEncoder.encode(shape, StandardCharsets.UTF_8));
        return q.toString();
    }
}

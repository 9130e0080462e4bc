package org.tunefarm.agent.update;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.tunefarm.agent.link.LinkTls;
import org.tunefarm.protocol.BuildVersion;

/**
 * {@code --auto-update FARM-URL}: before connecting, the agent asks the farm for the agent jar it
 * serves ({@code GET /install/tunefarm-agent.jar.sha256}, then the jar). When the served jar's
 * version differs from the running one, the jar is checked against the served SHA-256, written
 * beside the running jar and moved over it in one atomic rename, and the agent restarts on it
 * ({@link Restart}). A farm that serves no jar (404) costs one log line; any other failure leaves
 * the running jar alone. Serve the jar over TLS: a checksum beside a jar on plain HTTP proves nothing.
 */
public final class AgentUpdate {
    private static final Logger LOG = Logger.getLogger(AgentUpdate.class.getName());
    static final String JAR_PATH = "/install/tunefarm-agent.jar";
    /** Between checks; the first is at once. Checks happen only between connections, never mid-lease. */
    static final long MIN_INTERVAL_MS = 60_000;
    /** To obtain a connection, and then the longest a request may go without a byte. */
    private static final long CONNECT_TIMEOUT_MS = 10_000, IDLE_TIMEOUT_MS = 20_000;
    /**
     * The longest a whole GET may take, in case Vert.x's own timeouts never fire (seen once: a check
     * hung 66 s with a 60 s request timeout set): the checksum is a line, the jar may come over a slow link.
     */
    private static final long CHECKSUM_DEADLINE_MS = 30_000, JAR_DEADLINE_MS = 600_000;

    /** What a check found. */
    public enum Outcome {
        /** The served jar is the running one. */
        CURRENT,
        /** No jar served (404), or it could not be fetched or trusted: carry on. */
        UNAVAILABLE,
        /** A different jar of the same version is served: carry on with ours. */
        KEPT,
        /** The running jar was replaced by the served one: restart. */
        REPLACED
    }

    private final Vertx vertx;
    private final URI farm;
    private final LinkTls tls;
    private final Path jar;
    private final String version;
    private final LongSupplier clock;
    private final long idleTimeoutMs;
    private long lastCheck = Long.MIN_VALUE;
    private String keptSha;
    private boolean saidUnavailable;

    /**
     * @param jar     the running agent jar, replaced in place
     * @param version the running version
     */
    public AgentUpdate(Vertx vertx, URI farm, LinkTls tls, Path jar, String version, LongSupplier clock) {
        this(vertx, farm, tls, jar, version, clock, IDLE_TIMEOUT_MS);
    }

    AgentUpdate(Vertx vertx, URI farm, LinkTls tls, Path jar, String version, LongSupplier clock, long idleTimeoutMs) {
        this.idleTimeoutMs = idleTimeoutMs;
        this.vertx = vertx;
        this.farm = farm;
        this.tls = tls;
        this.jar = jar;
        this.version = version;
        this.clock = clock;
    }

    /** Checks unless one ran within the last minute; true when the agent must restart. */
    public boolean replacedIfDue() {
        long now = clock.getAsLong();
        if (lastCheck != Long.MIN_VALUE && now - lastCheck < MIN_INTERVAL_MS) return false;
        lastCheck = now;
        return check() == Outcome.REPLACED;
    }

    /**
     * One check; never throws. A request that has no answer in time is asked once more on a new
     * connection before the check gives up: a check that hangs costs the agent its update for a
     * minute (the next check is that far off), and one stuck connection (a farm's proxy, a half-open
     * socket, a board's flaky link) should not.
     */
    public Outcome check() {
        try {
            try {
                return checkOnce();
            } catch (TimeoutException e) {
                LOG.info(() -> "auto-update: " + e.getMessage() + "; asking again on a new connection");
                return checkOnce();
            }
        } catch (Exception e) {
            return unavailable(e.getMessage() != null ? e.getMessage() : e.toString());
        }
    }

    private Outcome checkOnce() throws Exception {
        HttpClient http = vertx.createHttpClient(options());
        try {
            Fetched sha = get(http, JAR_PATH + ".sha256", CHECKSUM_DEADLINE_MS);
            if (sha.status() == 404) {
                if (!saidUnavailable) LOG.info(() -> "auto-update: " + farm + " serves no agent jar (404); carrying on with version " + version);
                saidUnavailable = true;
                return Outcome.UNAVAILABLE;
            }
            if (sha.status() != 200) return unavailable("GET " + JAR_PATH + ".sha256 answered " + sha.status());
            String served = sha.body().toString().strip().split("\\s+")[0].toLowerCase(java.util.Locale.ROOT);
            if (!served.matches("[0-9a-f]{64}")) return unavailable("the served .sha256 is not a SHA-256");
            if (served.equals(sha256(Files.readAllBytes(jar)))) return Outcome.CURRENT;
            if (served.equals(keptSha)) return Outcome.KEPT;
            Fetched body = get(http, JAR_PATH, JAR_DEADLINE_MS);
            if (body.status() != 200) return unavailable("GET " + JAR_PATH + " answered " + body.status());
            byte[] bytes = body.body().getBytes();
            if (!served.equals(sha256(bytes))) return unavailable("the served jar does not match its SHA-256; keeping version " + version);
            return install(bytes, served);
        } finally {
            http.close();
        }
    }

    private Outcome install(byte[] bytes, String sha) throws IOException {
        Path next = jar.resolveSibling("." + jar.getFileName() + ".next-" + ProcessHandle.current().pid());
        try {
            try (FileChannel ch = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            String served = BuildVersion.of(next);
            if (served == null || served.equals(version)) {
                keptSha = sha;
                LOG.info(() -> "auto-update: the farm serves another jar of version " + version + "; keeping this one");
                return Outcome.KEPT;
            }
            // One rename: a crash leaves either the old jar or the new one, never half of one. The
            // running JVM keeps the old file open, so it carries on until it restarts.
            Files.move(next, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            LOG.info(() -> "auto-update: replaced version " + version + " by " + served + " (SHA-256 " + sha.substring(0, 12) + "…); restarting");
            return Outcome.REPLACED;
        } finally {
            Files.deleteIfExists(next);
        }
    }

    private Outcome unavailable(String why) {
        LOG.warning("auto-update from " + farm + " failed: " + why + "; carrying on with version " + version);
        return Outcome.UNAVAILABLE;
    }

    private record Fetched(int status, Buffer body) {}

    /** One GET; a {@link TimeoutException} naming the path when neither an answer nor Vert.x's own timeout came. */
    private Fetched get(HttpClient http, String path, long deadlineMs) throws Exception {
        RequestOptions req = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(farm + path)
                .setConnectTimeout(CONNECT_TIMEOUT_MS).setIdleTimeout(idleTimeoutMs);
        Future<Fetched> f = http.request(req).compose(r -> r.send()).compose(resp -> resp.body().map(b -> new Fetched(resp.statusCode(), b)));
        long started = System.nanoTime();
        try {
            return f.toCompletionStage().toCompletableFuture().get(deadlineMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } catch (TimeoutException e) {
            throw new TimeoutException("GET " + path + " had no answer in " + (System.nanoTime() - started) / 1_000_000 + " ms");
        }
    }

    private HttpClientOptions options() {
        HttpClientOptions o = new HttpClientOptions().setConnectTimeout((int) CONNECT_TIMEOUT_MS);
        if ("https".equals(farm.getScheme())) {
            o.setSsl(true).setVerifyHost(true);
            if (tls != null && tls.trustFile() != null) o.setTrustOptions(new PemTrustOptions().addCertPath(tls.trustFile().toString()));
        }
        return o;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

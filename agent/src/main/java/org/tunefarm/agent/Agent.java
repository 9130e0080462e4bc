package org.tunefarm.agent;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.agent.link.BridgeClient;
import org.tunefarm.agent.link.CredentialFile;
import org.tunefarm.agent.update.AgentUpdate;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.protocol.Ack;
import org.tunefarm.protocol.Enroll;
import org.tunefarm.protocol.Enrolled;
import org.tunefarm.protocol.BuildVersion;
import org.tunefarm.protocol.Heartbeat;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Pull;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Registered;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;

/**
 * The agent's life: connect to a coordinator (trying each in turn, with backoff), enroll the first
 * time (the farm token buys a credential of the agent's own, kept in a 0600 file), register with
 * that credential, then pull a lease, measure it, report each result as it is taken, and ask
 * again; heartbeats go out meanwhile so the farm knows the board is alive and how hot it is. One
 * connection serves a whole sweep: only a lost connection (or a refusal that names the agent
 * itself) makes it reconnect, and only then does it move to the next coordinator.
 */
public final class Agent {
    private static final Logger LOG = Logger.getLogger(Agent.class.getName());
    private static final long REQUEST_TIMEOUT_MS = 30_000;
    private static final long MAX_BACKOFF_MS = 10_000;

    private final AgentConfig config;
    private final DeviceProfile profile;
    private final List<String> families;
    private final List<CommandKernelDeclaration> commandKernels;
    private final LeaseRunner runner;
    private final Supplier<SensorReading> sensors;
    private final CredentialFile credentialFile;
    private final Vertx vertx = Vertx.vertx();
    /** The event loop that encodes and sends a lease's reports, off the measuring thread. */
    private final io.vertx.core.Context reportContext = vertx.getOrCreateContext();
    private volatile String currentLease;
    private volatile boolean stopping;
    private AgentUpdate update;
    private boolean replaced;

    /**
     * @param families       every operation it runs, built-in families and command kernels alike
     * @param commandKernels the declarations of its command kernels, advertised at registration
     */
    public Agent(AgentConfig config, DeviceProfile profile, List<String> families, List<CommandKernelDeclaration> commandKernels,
                 LeaseRunner runner, Supplier<SensorReading> sensors) {
        this.config = config;
        this.profile = profile;
        this.families = families;
        this.commandKernels = commandKernels;
        this.runner = runner;
        this.sensors = sensors;
        this.credentialFile = new CredentialFile(config.credentialFile());
    }

    /**
     * Checks the farm for a newer agent jar before each connection (at most once a minute, never
     * during a lease); {@link #run()} returns once the jar was replaced.
     */
    public Agent updatingFrom(java.net.URI farm) {
        java.nio.file.Path jar = BuildVersion.launchJar();
        if (jar == null) {
            LOG.warning("--auto-update: this agent does not run from its jar (java -jar), so it cannot replace it; not updating");
            return this;
        }
        update = new AgentUpdate(vertx, farm, config.tls(), jar, BuildVersion.current(), System::currentTimeMillis);
        return this;
    }

    /** Whether {@link #run()} returned because the jar was replaced, so the agent must start again. */
    public boolean replaced() {
        return replaced;
    }

    /** Runs until interrupted, {@link #stop()}, or its jar was replaced by auto-update. */
    public void run() throws InterruptedException {
        long backoff = 250;
        int next = 0;
        while (!stopping) {
            if (update != null && update.replacedIfDue()) {
                replaced = true;
                return;
            }
            String target = config.coordinators().get(next++ % config.coordinators().size());
            BridgeClient link = new BridgeClient(vertx, config.token(), config.tls());
            try {
                String[] hp = target.split(":");
                await(link.connect(hp[0], Integer.parseInt(hp[1]), 5_000));
                link.useToken(credential(link));
                Registered reg = register(link);
                LOG.info(() -> "registered with " + target + " as " + reg.agentId() + " in device class " + reg.deviceClass() + " (version " + BuildVersion.current() + ")");
                backoff = 250;
                work(link, reg);
            } catch (InterruptedException e) {
                throw e;
            } catch (BridgeClient.FarmRefusal e) {
                if (e.code() == 403) backoff = MAX_BACKOFF_MS; // revoked: only an admin can change that
                LOG.log(Level.WARNING, "the coordinator at " + target + " refused this agent: " + e.getMessage());
            } catch (Exception e) {
                LOG.log(Level.WARNING, "lost the coordinator at " + target + ": " + e.getMessage());
            } finally {
                try {
                    await(link.close());
                } catch (Exception ignored) {
                    // already gone
                }
            }
            if (stopping) break;
            long sleep = backoff + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
            Thread.sleep(sleep);
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
    }

    /**
     * The agent's own credential: from its file, or, the first time, by enrolling with the farm
     * token on this connection (the farm keeps only a hash; the file is the agent's alone).
     */
    private String credential(BridgeClient link) throws Exception {
        String kept = credentialFile.read();
        if (kept != null) return kept;
        Enrolled e = Protocol.read(await(link.request(Protocol.ENROLL, new Enroll(config.agentId()), REQUEST_TIMEOUT_MS)).encode(), Enrolled.class);
        credentialFile.write(e.credential());
        LOG.info(() -> "enrolled as " + config.agentId() + "; the credential is kept in " + credentialFile.path());
        return e.credential();
    }

    private Registered register(BridgeClient link) throws Exception {
        try {
            return Protocol.read(await(link.request(Protocol.REGISTER, new Register(Protocol.VERSION, config.agentId(), profile, families, commandKernels, BuildVersion.current()), REQUEST_TIMEOUT_MS)).encode(), Registered.class);
        } catch (BridgeClient.FarmRefusal r) {
            if (r.code() == 404) {
                // The farm has no credential for this id (its data was replaced): enroll again.
                LOG.info(() -> "the farm does not know this agent's credential; enrolling again: " + r.getMessage());
                credentialFile.forget();
            }
            throw r;
        }
    }

    private void work(BridgeClient link, Registered reg) throws Exception {
        long timer = vertx.setPeriodic(reg.heartbeatMs(), t -> {
            if (link.connected()) {
                link.request(Protocol.HEARTBEAT, new Heartbeat(config.agentId(), currentLease, sensors.get()), reg.heartbeatMs() * 3)
                        .onFailure(e -> LOG.fine(() -> "heartbeat failed: " + e.getMessage()));
            }
        });
        try {
            while (!stopping && link.connected()) {
                Work w = Protocol.read(await(link.request(Protocol.PULL, new Pull(config.agentId()), REQUEST_TIMEOUT_MS)).encode(), Work.class);
                if (w.lease() == null) {
                    Thread.sleep(Math.max(50, w.retryMs()));
                    continue;
                }
                measure(link, w.lease());
            }
        } finally {
            vertx.cancelTimer(timer);
            currentLease = null;
        }
    }

    /**
     * Measures a lease, reporting each result as it is taken (at the pace the lease asks for),
     * without waiting for the farm's answer before the next candidate ({@link ReportStream}). When the farm refuses a report (the
     * lease expired, another coordinator took the lead) the rest of the lease is abandoned: its
     * candidates are already back in the queue, so measuring them here would be wasted. When the
     * farm keeps a report but asks the agent to stop (its sweep was paused or cancelled), the rest
     * is given up the same way, quietly: that is the operator's wish, not a fault.
     */
    private void measure(BridgeClient link, Lease lease) throws Exception {
        currentLease = lease.leaseId();
        LOG.info(() -> "lease " + lease.leaseId() + ": " + lease.candidates().size() + " candidates of " + lease.key().id());
        ReportStream reports = new ReportStream((ms, done) -> report(link, lease, ms, done, 1, 200),
                r -> reportContext.runOnContext(v -> r.run()), (ms, r) -> reportContext.runOnContext(v -> vertx.setTimer(ms, t -> r.run())),
                lease.reportEveryMs(), Thread.currentThread());
        String stopped;
        try {
            runner.run(lease, reports::add);
            stopped = reports.finish(REQUEST_TIMEOUT_MS * 5);
        } catch (BridgeClient.FarmRefusal r) {
            if (r.getMessage().contains("agentId:")) throw r; // forgotten: re-register
            LOG.warning("lease " + lease.leaseId() + " abandoned: " + r.getMessage());
            return;
        } finally {
            Thread.interrupted(); // clear our own interrupt, the loop goes on
            currentLease = null;
        }
        if (stopped != null) LOG.info(() -> "lease " + lease.leaseId() + " stopped by the farm: " + stopped);
    }

    /**
     * Sends a report; a farm that cannot make it durable yet (503) gets it again after a back-off,
     * up to 5 tries: it is idempotent. Answers on the link's event loop, never blocking it.
     */
    private Future<Ack> report(BridgeClient link, Lease lease, List<Measurement> ms, boolean done, int attempt, long backoffMs) {
        return link.request(Protocol.REPORT, new Report(config.agentId(), lease.leaseId(), ms, done), REQUEST_TIMEOUT_MS)
                .map(reply -> Protocol.read(reply.encode(), Ack.class))
                .recover(e -> {
                    if (!(e instanceof BridgeClient.FarmRefusal r) || r.code() != 503 || attempt >= 5 || !link.connected()) return Future.failedFuture(e);
                    io.vertx.core.Promise<Ack> again = io.vertx.core.Promise.promise();
                    vertx.setTimer(backoffMs, t -> report(link, lease, ms, done, attempt + 1, backoffMs * 2).onComplete(again));
                    return again.future();
                });
    }

    public void stop() {
        stopping = true;
    }

    public void close() {
        vertx.close();
    }

    private static <T> T await(Future<T> f) throws Exception {
        try {
            return f.toCompletionStage().toCompletableFuture().get(REQUEST_TIMEOUT_MS + 5_000, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }
}

package org.tunefarm.agent;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.tunefarm.agent.device.JvmAdvice;
import org.tunefarm.agent.device.ProfileReader;
import org.tunefarm.agent.harness.Batch;
import org.tunefarm.agent.harness.BatchCandidate;
import org.tunefarm.agent.harness.BatchRunner;
import org.tunefarm.agent.harness.KeptWorker;
import org.tunefarm.agent.harness.CandidateCheck;
import org.tunefarm.agent.harness.ThermalGuard;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.command.CommandKernels;
import org.tunefarm.agent.kernels.replay.ReplayFamily;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.agent.update.Restart;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.log.OperatorLog;
import org.tunefarm.replay.ReplaySpaces;
import org.tunefarm.replay.ReplaySpec;

/**
 * {@code tunefarm agent}: reads this device's profile once, then serves the farm until killed.
 * Built-in kernels run in a worker JVM, started from this agent's own jar and kept for the leases
 * of one kernel and shape ({@link KeptWorker}); command
 * kernels of its config are built and run from the agent itself; replayed spaces
 * ({@code --spaces}) are answered from their recordings in this JVM.
 */
public final class AgentMain {
    private static final Logger LOG = Logger.getLogger(AgentMain.class.getName());

    private AgentMain() {}


    public static void main(String[] args) throws Exception {
        AgentConfig config;
        try {
            config = AgentConfig.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        OperatorLog.configure(config.verbose());
        WorkerCommand workerCommand = WorkerCommand.current();
        if (config.spaces() != null) {
            List<ReplayFamily> replayed = ReplayFamily.register(config.spaces());
            // Read every recording now, not while a lease's deadline runs.
            for (ReplayFamily f : replayed) f.spec().recorded();
            LOG.info(() -> "replaying " + replayed.stream().map(f -> f.spec().op()).toList() + " from " + config.spaces());
            workerCommand = workerCommand.withJvmArgs("-D" + ReplaySpaces.PROPERTY + "=" + config.spaces());
        }
        DeviceProfile profile;
        try {
            profile = ProfileReader.read(config.labels());
        } catch (IllegalArgumentException e) { // a -Dtunefarm.vectorBits this JVM cannot use
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        String advice = JvmAdvice.forThisJvm().orElse(null);
        if (advice != null) LOG.info(advice);
        Sensors sensors = Sensors.forConfig(config.sensors());
        CommandKernels commands = new CommandKernels(config.commandKernels());
        List<String> families = new ArrayList<>(KernelFamilies.all().stream().map(KernelFamily::spec).map(s -> s.op()).toList());
        families.addAll(commands.names());
        LOG.info(() -> "agent " + config.agentId() + " on " + profile.cpuModel() + " (device class " + profile.deviceClass() + "), families " + families);
        // The agent runs its own families only, on parameters it has checked against their spaces itself.
        CandidateCheck check = CandidateCheck.against(op -> commands.has(op) ? commands.spec(op) : KernelFamilies.get(op).spec(),
                profile.logicalCores(), profile.vectorBits(), profile.vectorRegisters());
        // One seam, three kinds of worker: built-in families in a worker JVM, command kernels from
        // here, and replayed candidates in process (they run no code, so there is nothing to contain,
        // and a fresh worker per lease would only re-read the cache file).
        // One board, one heat: every kind of worker waits for the same cooldown and shares one clock baseline.
        ThermalGuard thermal = ThermalGuard.atStart(sensors, config.thermal());
        // A sweep's leases of one kernel and shape share a worker JVM rather than each starting one.
        KeptWorker kept = new KeptWorker(workerCommand::newWorker, KeptWorker.IDLE_MS);
        BatchRunner inJvm = new BatchRunner(kept::lend, sensors, config.agentId(), profile.deviceClass(), Clock.systemUTC(), check, thermal);
        BatchRunner byCommand = new BatchRunner(commands::worker, sensors, config.agentId(), profile.deviceClass(), Clock.systemUTC(), check, thermal);
        BatchRunner replayed = new BatchRunner(() -> Worker.inProcess(KernelFamilies::get), sensors, config.agentId(), profile.deviceClass(), Clock.systemUTC(),
                check, thermal);
        // Each record says which version of its family's code ran it (command kernels: the first).
        LeaseRunner leases = (lease, each) -> {
            String op = lease.key().op();
            int implementation = commands.has(op) ? 1 : KernelFamilies.implementation(op);
            (commands.has(op) ? byCommand : op.startsWith(ReplaySpec.PREFIX) ? replayed : inJvm).run(new Batch(lease.sweepId(), lease.key(),
                    lease.candidates().stream().map(c -> new BatchCandidate(c.index(), c.params())).toList(), lease.measure(),
                    lease.round(), lease.fidelity(), lease.objective(), lease.sustainedSeconds(), lease.deadline()),
                    m -> each.accept(m.ofImplementation(implementation)));
        };
        Agent agent = new Agent(config, profile, List.copyOf(families), commands.declarations(), leases, sensors::read);
        if (config.autoUpdate() != null) agent.updatingFrom(config.autoUpdate());
        Runtime.getRuntime().addShutdownHook(new Thread(agent::stop));
        agent.run();
        if (agent.replaced()) {
            agent.close();
            System.exit(Restart.run(args));
        }
    }
}

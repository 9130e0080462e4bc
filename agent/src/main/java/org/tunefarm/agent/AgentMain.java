package org.tunefarm.agent;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;
import org.tunefarm.agent.device.ProfileReader;
import org.tunefarm.agent.harness.Batch;
import org.tunefarm.agent.harness.BatchCandidate;
import org.tunefarm.agent.harness.BatchRunner;
import org.tunefarm.agent.harness.CandidateCheck;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.device.DeviceProfile;

/**
 * {@code tunefarm agent}: reads this device's profile once, then serves the farm until killed.
 * Built-in kernels run in a worker JVM per lease, started from this agent's own jar.
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
        DeviceProfile profile = ProfileReader.read(config.labels());
        Sensors sensors = Sensors.memoised(Sensors.forThisMachine(), Duration.ofMillis(200));
        List<String> families = KernelFamilies.all().stream().map(KernelFamily::spec).map(s -> s.op()).toList();
        LOG.info(() -> "agent " + config.agentId() + " on " + profile.cpuModel() + " (device class " + profile.deviceClass() + "), families " + families);
        // The agent runs its own families only, on parameters it has checked against their spaces itself.
        CandidateCheck check = CandidateCheck.against(op -> KernelFamilies.get(op).spec(), profile.logicalCores());
        BatchRunner runner = new BatchRunner(WorkerCommand.current()::newWorker, sensors, config.agentId(), profile.deviceClass(), Clock.systemUTC(), check);
        LeaseRunner leases = (lease, each) -> runner.run(new Batch(lease.sweepId(), lease.key(),
                lease.candidates().stream().map(c -> new BatchCandidate(c.index(), c.params())).toList(), lease.measure()), each);
        Agent agent = new Agent(config, profile, families, leases, sensors::read);
        Runtime.getRuntime().addShutdownHook(new Thread(agent::stop));
        agent.run();
    }
}

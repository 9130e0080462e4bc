package org.tunefarm.agent.kernels.replay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.RecordedCandidate;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.replay.RecordedSpace;
import org.tunefarm.replay.ReplaySpaces;
import org.tunefarm.replay.ReplaySpec;

/**
 * Answers each candidate of a replayed space from its Kernel Tuner cache file instead of running
 * anything: this is how the farm is exercised end to end (leases, several agents, asynchronous
 * results, the table) on GPU spaces measured elsewhere, with a known optimum.
 *
 * <p>A recorded time (the median of the cache entry's {@code times}, in ms) becomes a one-sample
 * {@link Stats}, so the table's median is exactly the recorded time. Recorded failures map to:
 * {@code InvalidConfig} → {@link Status#INVALID}, {@code CompilationFailedConfig} →
 * {@link Status#BUILD_FAILED}, {@code RuntimeFailedConfig} and anything else → {@link Status#CRASH}.
 * Every outcome's detail says {@code replayed from <file>}.
 */
public final class ReplayFamily implements KernelFamily {

    private final ReplaySpec spec;

    public ReplayFamily(ReplaySpec spec) {
        this.spec = spec;
    }

    /**
     * Registers the spaces of {@code dir} with both {@link KernelSpecs} and {@link KernelFamilies},
     * as agent and worker do at start-up. Nothing is read until a space is first used.
     */
    public static List<ReplayFamily> register(Path dir) {
        List<ReplayFamily> out = new ArrayList<>();
        for (ReplaySpec s : ReplaySpaces.register(dir)) out.add((ReplayFamily) KernelFamilies.register(new ReplayFamily(s)));
        return out;
    }

    /** The same, for the folder named by {@link ReplaySpaces#PROPERTY}; none when it is unset. */
    public static List<ReplayFamily> registerFromSystemProperty() {
        String dir = System.getProperty(ReplaySpaces.PROPERTY);
        return dir == null || dir.isBlank() ? List.of() : register(Path.of(dir.strip()));
    }

    @Override public ReplaySpec spec() { return spec; }

    @Override public Workload workload(KernelKey key, long seed) {
        spec.validate(key);
        return new Recording(key, spec.recorded(), "replayed from " + spec.file().getFileName());
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        Recording w = (Recording) workload;
        long index;
        try {
            index = w.recorded().space().index(params);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(spec.op() + ": " + e.getMessage(), e);
        }
        if (!w.recorded().contains(index)) throw new IllegalArgumentException(spec.op() + ": " + params + " is not a recorded configuration");
        CandidateOutcome outcome = outcome(w.recorded(), index, w.source());
        return (RecordedCandidate) () -> outcome;
    }

    static CandidateOutcome outcome(RecordedSpace recorded, long index, String source) {
        OptionalDouble ms = recorded.time(index);
        if (ms.isPresent()) {
            double ns = ms.getAsDouble() * 1e6;
            return new CandidateOutcome(Status.OK, new Stats(ns, ns, ns, 0, 0, 1, 1), null, source);
        }
        String why = recorded.failure(index);
        return CandidateOutcome.failed(status(why), source + ": " + why);
    }

    static Status status(String failure) {
        return switch (failure) {
            case "InvalidConfig" -> Status.INVALID;
            case "CompilationFailedConfig" -> Status.BUILD_FAILED;
            default -> Status.CRASH;
        };
    }

    /** The recording stands in for inputs and reference: there is nothing to compute or compare. */
    private record Recording(KernelKey key, RecordedSpace recorded, String source) implements Workload {
        @Override public double errorBound() { return 0; }
    }
}

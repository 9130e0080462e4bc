package org.tunefarm.agent.worker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.FamilyLookup;
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.measure.Status;

/** The worker's request/response loop, apart from process set-up so it can be tested in-process. */
final class WorkerLoop {

    private final FamilyLookup families;
    private final Harness harness;

    WorkerLoop(FamilyLookup families, Harness harness) {
        this.families = families;
        this.harness = harness;
    }

    /** Serves requests until {@code in} ends. */
    void serve(BufferedReader in, PrintStream out) throws IOException {
        out.println(WorkerCodec.line(new WorkerHello(WorkerHello.PROTOCOL, ProcessHandle.current().pid(), VectorWidth.bits())));
        out.flush();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) continue;
            out.println(WorkerCodec.line(answer(line)));
            out.flush();
        }
    }

    WorkerResponse answer(String line) {
        WorkerRequest request;
        try {
            request = WorkerCodec.parse(line, WorkerRequest.class);
        } catch (IllegalArgumentException e) {
            return new WorkerResponse(-1, CandidateOutcome.failed(Status.CRASH, "bad request: " + e.getMessage()));
        }
        KernelFamily family;
        try {
            family = families.family(request.key().op());
        } catch (IllegalArgumentException e) {
            CandidateOutcome crash = CandidateOutcome.failed(Status.CRASH, e.getMessage());
            return new WorkerResponse(request.seq(), crash, request.group() == null ? null : java.util.Collections.nCopies(request.group().size(), crash));
        }
        if (request.group() != null) {
            List<CandidateOutcome> outcomes = harness.measureInterleaved(family, request.key(), request.group(), request.settings());
            return new WorkerResponse(request.seq(), null, outcomes);
        }
        if (request.sustainedSeconds() != null) {
            return new WorkerResponse(request.seq(), harness.sustain(family, request.key(), request.params(), request.settings(), request.sustainedSeconds()));
        }
        return new WorkerResponse(request.seq(), harness.measure(family, request.key(), request.params(), request.settings()));
    }
}

package org.tunefarm.agent.worker;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.tunefarm.agent.harness.FamilyLookup;
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.replay.ReplayFamily;

/**
 * Entry point of the worker process: JSON-lines requests on stdin, responses on stdout. Stdout
 * belongs to the protocol alone, so anything a kernel prints goes to stderr, which the agent keeps
 * a tail of for crash reports.
 */
public final class WorkerMain {

    private WorkerMain() {}

    public static void main(String[] args) throws Exception {
        PrintStream protocol = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        // The agent passes its --spaces folder on as a system property, so a worker knows the same replay.* kernels.
        ReplayFamily.registerFromSystemProperty();
        // Chained only when families are named: an empty lookup in front would throw (and build a
        // stack trace) for every candidate before the built-in registry answers.
        String named = System.getProperty(FamilyLookup.PROPERTY);
        FamilyLookup families = named == null || named.isBlank() ? KernelFamilies::get : FamilyLookup.ofClassNames(named).or(KernelFamilies::get);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        new WorkerLoop(families, Harness.create()).serve(in, protocol);
        // stdin closed: the agent is done with this worker. Exit even if a kernel left threads running.
        System.exit(0);
    }
}

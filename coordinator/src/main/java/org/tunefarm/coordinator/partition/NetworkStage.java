package org.tunefarm.coordinator.partition;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The network a partition is staged on, made of Linux network namespaces (needs root and
 * iproute2): a hub namespace holding a bridge, and one namespace per side, each joined to the
 * bridge by a veth pair (the data link, {@code 10.77.0.<side>/24}) and to the hub by a second one
 * (the control link, {@code 10.78.<side>.2/24}, the hub end {@code .1}) that the bench uses to
 * ask each side's coordinators over REST. Cutting a side sets its data link down; the control
 * links are never bridged and the hub does not forward, so the sides cannot reach each other
 * through it. Every address exists only inside these namespaces: nothing leaves the machine.
 */
public final class NetworkStage implements AutoCloseable {
    private static final String PREFIX = "tfp";

    private final String id;
    private final int sides;
    private final List<String> made = new ArrayList<>();

    private NetworkStage(String id, int sides) {
        this.id = id;
        this.sides = sides;
    }

    /** The namespace name prefix of a stage made by this process. Names stay short: interface names are at most 15 bytes. */
    static String idOf(long pid) {
        return Long.toString(pid, 36);
    }

    /** A stage another process made and will remove: this one only cuts and heals it. */
    public static NetworkStage existing(String id, int sides) {
        return new NetworkStage(id, sides);
    }

    /** Makes the namespaces and links; on failure removes what it made and says which command failed. */
    public static NetworkStage make(int sides) throws IOException, InterruptedException {
        removeStale();
        NetworkStage s = new NetworkStage(idOf(ProcessHandle.current().pid()), sides);
        try {
            s.build();
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    public String hub() {
        return PREFIX + id + "hub";
    }

    public String side(int k) {
        return PREFIX + id + "s" + k;
    }

    private String dataLink(int k) {
        return PREFIX + id + "d" + k;
    }

    private String controlLink(int k) {
        return PREFIX + id + "c" + k;
    }

    /** Where a side's coordinators and agents listen: on the data network. */
    public static String dataAddress(int k) {
        return "10.77.0." + k;
    }

    /** Where the bench, in the hub, reaches a side's REST. */
    public static String controlAddress(int k) {
        return "10.78." + k + ".2";
    }

    private void build() throws IOException, InterruptedException {
        ns(hub());
        ip("-n", hub(), "link", "set", "lo", "up");
        String bridge = PREFIX + id + "br";
        ip("-n", hub(), "link", "add", bridge, "type", "bridge");
        ip("-n", hub(), "link", "set", bridge, "up");
        for (int k = 1; k <= sides; k++) {
            String side = side(k);
            ns(side);
            ip("-n", side, "link", "set", "lo", "up");
            ip("-n", hub(), "link", "add", dataLink(k), "type", "veth", "peer", "name", "data0", "netns", side);
            ip("-n", hub(), "link", "set", dataLink(k), "master", bridge, "up");
            ip("-n", side, "addr", "add", dataAddress(k) + "/24", "dev", "data0");
            ip("-n", side, "link", "set", "data0", "up");
            ip("-n", hub(), "link", "add", controlLink(k), "type", "veth", "peer", "name", "ctl0", "netns", side);
            ip("-n", hub(), "addr", "add", "10.78." + k + ".1/24", "dev", controlLink(k));
            ip("-n", hub(), "link", "set", controlLink(k), "up");
            ip("-n", side, "addr", "add", controlAddress(k) + "/24", "dev", "ctl0");
            ip("-n", side, "link", "set", "ctl0", "up");
        }
    }

    private void ns(String name) throws IOException, InterruptedException {
        ip("netns", "add", name);
        made.add(name);
    }

    /** The command prefix that runs a program inside a namespace. */
    public List<String> inside(String namespace) {
        return List.of("ip", "netns", "exec", namespace);
    }

    /** Cuts side {@code k} off the data network (run from the hub or outside). */
    public void cut(int k) throws IOException, InterruptedException {
        ip("-n", hub(), "link", "set", dataLink(k), "down");
    }

    public void heal(int k) throws IOException, InterruptedException {
        ip("-n", hub(), "link", "set", dataLink(k), "up");
    }

    public String id() {
        return id;
    }

    /** Ends every process left in the namespaces, then removes them (their links go with them). */
    @Override public void close() {
        for (int i = made.size() - 1; i >= 0; i--) remove(made.get(i));
        made.clear();
    }

    private static void remove(String namespace) {
        try {
            String pids = run(List.of("ip", "netns", "pids", namespace), false);
            for (String p : pids.split("\\s+")) {
                if (!p.isBlank()) ProcessHandle.of(Long.parseLong(p.strip())).ifPresent(ProcessHandle::destroyForcibly);
            }
            run(List.of("ip", "netns", "del", namespace), false);
        } catch (IOException | InterruptedException | NumberFormatException e) {
            System.err.println("partition: could not remove namespace " + namespace + ": " + e.getMessage());
        }
    }

    /** Removes namespaces a killed bench left behind: those whose process id is no longer alive. */
    private static void removeStale() throws IOException, InterruptedException {
        for (String line : run(List.of("ip", "netns", "list"), false).split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (!name.matches(PREFIX + "[0-9a-z]+(hub|s\\d)")) continue;
            String owner = name.substring(PREFIX.length()).replaceAll("(hub|s\\d)$", "");
            try {
                if (ProcessHandle.of(Long.parseLong(owner, 36)).isEmpty()) remove(name);
            } catch (NumberFormatException ignored) {
                // not one of ours
            }
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        run(cmd, true);
    }

    private static String run(List<String> cmd, boolean check) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + ": did not finish");
        }
        if (check && p.exitValue() != 0) throw new IOException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out.strip());
        return out;
    }
}

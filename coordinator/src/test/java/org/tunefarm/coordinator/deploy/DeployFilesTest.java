package org.tunefarm.coordinator.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.YamlConfigBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The deploy files build and run, checked without a Docker engine or a Kubernetes cluster: the
 * images copy every module of the reactor and everything the coordinator jar takes from outside
 * its module, the Kubernetes coordinators discover each other through Hazelcast's Kubernetes
 * discovery, and no deploy file puts the farm token in an agent's command line.
 */
class DeployFilesTest {
    static final Path ROOT = Path.of("..");
    static final Pattern COPY = Pattern.compile("^COPY\\s+(?!--from)(.+)$", Pattern.MULTILINE);

    @Test void dockerfilesCopyExactlyTheReactorsModules() throws IOException {
        Set<String> reactor = new TreeSet<>(matches(Files.readString(ROOT.resolve("pom.xml")), "<module>([^<]+)</module>"));
        assertTrue(reactor.containsAll(Set.of("shared", "agent", "coordinator", "bench")), "reactor: " + reactor);
        for (String dockerfile : List.of("Dockerfile.agent", "Dockerfile.coordinator")) {
            Set<String> copied = new TreeSet<>();
            for (String source : buildStageSources(dockerfile)) {
                String top = source.split("/")[0];
                if (Files.isRegularFile(ROOT.resolve(top).resolve("pom.xml"))) copied.add(top);
            }
            assertEquals(reactor, copied, dockerfile + " must copy every module the parent pom lists (sources or pom.xml)");
        }
    }

    @Test void coordinatorImageCopiesWhatItsJarTakesFromOutsideTheModule() throws IOException {
        List<String> sources = buildStageSources("Dockerfile.coordinator");
        String pom = Files.readString(ROOT.resolve("coordinator/pom.xml"));
        Matcher resource = Pattern.compile("<directory>\\$\\{project.basedir}/\\.\\./([^<]+)</directory>(.*?)</resource>", Pattern.DOTALL).matcher(pom);
        int outside = 0;
        while (resource.find()) {
            String dir = resource.group(1);
            for (String include : matches(resource.group(2), "<include>([^<]+)</include>")) {
                String file = include.contains("*") ? dir : dir + "/" + include;
                assertTrue(sources.stream().anyMatch(s -> file.equals(s) || file.startsWith(s + "/")),
                        "Dockerfile.coordinator does not copy " + file + " (a resource of coordinator/pom.xml); copied: " + sources);
                outside++;
            }
        }
        assertTrue(outside >= 4, "expected the workloads and the installer files among coordinator/pom.xml's resources");
    }

    @Test void kubernetesCoordinatorsJoinThroughHazelcastKubernetesDiscovery() throws IOException {
        String hazelcast = null;
        for (JsonNode doc : documents(ROOT.resolve("deploy/k8s/coordinator.yaml"))) {
            if (doc.path("kind").asText().equals("ConfigMap") && doc.path("data").has("hazelcast.yaml")) hazelcast = doc.path("data").path("hazelcast.yaml").asText();
        }
        assertTrue(hazelcast != null, "deploy/k8s/coordinator.yaml has no ConfigMap with hazelcast.yaml");
        Config config = new YamlConfigBuilder(new ByteArrayInputStream(hazelcast.getBytes(StandardCharsets.UTF_8))).build();
        JoinConfig join = config.getNetworkConfig().getJoin();
        assertTrue(join.getKubernetesConfig().isEnabled(), "Kubernetes discovery is off");
        assertFalse(join.getTcpIpConfig().isEnabled(), "a static member list is still on");
        assertFalse(join.getMulticastConfig().isEnabled());
        String dns = join.getKubernetesConfig().getProperty("service-dns");
        assertTrue(dns != null && dns.startsWith("tunefarm-coordinator-hz."), "service-dns: " + dns);
        // The name it looks up is the headless Service in front of the StatefulSet's pods.
        boolean headless = false;
        for (JsonNode doc : documents(ROOT.resolve("deploy/k8s/coordinator.yaml"))) {
            if (doc.path("kind").asText().equals("Service") && doc.path("metadata").path("name").asText().equals("tunefarm-coordinator-hz")) {
                headless = doc.path("spec").path("clusterIP").asText().equals("None") && doc.path("spec").path("publishNotReadyAddresses").asBoolean();
            }
        }
        assertTrue(headless, "tunefarm-coordinator-hz must be a headless Service that publishes not-ready pods");
    }

    @Test void composeAndImageHazelcastConfigsParse() throws IOException {
        for (String file : List.of("deploy/docker/hazelcast.yaml", "deploy/docker/hazelcast-compose.yaml")) {
            try (var in = Files.newInputStream(ROOT.resolve(file))) {
                assertEquals("tunefarm", new YamlConfigBuilder(in).build().getClusterName(), file);
            }
        }
    }

    @Test void noDeployFileGivesAnAgentItsTokenInArgv() throws IOException {
        // The files that start agents: images, compose, Kubernetes, the systemd unit.
        try (Stream<Path> files = Files.walk(ROOT.resolve("deploy"))) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().matches("Dockerfile.*|.*\\.ya?ml|.*\\.service")).toList()) {
                String text = Files.readString(f);
                assertFalse(Pattern.compile("\"--token\"|--token [^-f]|\\$\\(TUNEFARM_TOKEN\\)").matcher(text).find(), f + " puts a token in a command line");
            }
        }
    }

    /**
     * The unit asks for the video group (a Pi's vcgencmd), and the installer's sed drops exactly
     * that line where the group is missing, since systemd would not start the unit at all then.
     */
    @Test void theInstallerDropsTheUnitsVideoGroupLineOnASystemWithoutIt() throws Exception {
        String unit = Files.readString(ROOT.resolve("deploy/tunefarm-agent.service"));
        assertTrue(unit.lines().anyMatch("SupplementaryGroups=video"::equals), unit);
        Matcher drop = Pattern.compile("getent group video >/dev/null 2>&1 \\|\\| unit=\\$\\(sed '([^']+)'").matcher(Files.readString(ROOT.resolve("deploy/install-agent.sh")));
        assertTrue(drop.find(), "install-agent.sh no longer drops the video group line");
        Process sed = new ProcessBuilder("sed", drop.group(1), ROOT.resolve("deploy/tunefarm-agent.service").toString()).redirectErrorStream(true).start();
        String without = new String(sed.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, sed.waitFor(), without);
        assertEquals(unit.lines().filter(l -> !l.equals("SupplementaryGroups=video")).toList(), without.lines().toList());
    }

    /** The sources of the COPY instructions before the second FROM (the build stage). */
    private static List<String> buildStageSources(String dockerfile) throws IOException {
        String text = Files.readString(ROOT.resolve("deploy").resolve(dockerfile));
        int second = text.indexOf("\nFROM ", text.indexOf("\nFROM ") + 1);
        String build = second < 0 ? text : text.substring(0, second);
        List<String> sources = new ArrayList<>();
        Matcher m = COPY.matcher(build);
        while (m.find()) {
            String[] words = m.group(1).trim().split("\\s+");
            for (int i = 0; i < words.length - 1; i++) sources.add(words[i].replaceAll("/$", ""));
        }
        assertFalse(sources.isEmpty(), dockerfile + " copies nothing in its build stage");
        return sources;
    }

    private static List<String> matches(String text, String regex) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) out.add(m.group(1).trim());
        return out;
    }

    private static List<JsonNode> documents(Path yaml) throws IOException {
        ObjectMapper mapper = new ObjectMapper(new YAMLFactory());
        try (MappingIterator<JsonNode> it = mapper.readerFor(JsonNode.class).readValues(Files.readString(yaml))) {
            return it.readAll();
        }
    }
}
